import type { DialectDescriptor } from '../descriptor';
import { PI_DIALECT_INFO } from './info';
import { toPiMessageRecords } from './message-records';
import { getPiWindowForModel } from './model-window';
import { createPiNormalizer } from './normalizer';
import type { FileToolSpec } from '../descriptor';
import { createShellReadTool } from '../shared/shell-reads';

/**
 * pi's file tools, each with `path` (badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:
 * packages/coding-agent/src/core/tools/read.ts:12 and :54 `name: "read"`, write.ts:8 and :39,
 * edit.ts:17 and :59), and `bash` (bash.ts:172) its shell.
 */
const PI_FILE_TOOLS: readonly FileToolSpec[] = [
  { name: 'read', action: 'read', pathKeys: ['path'] },
  { name: 'write', action: 'write', pathKeys: ['path'] },
  { name: 'edit', action: 'edit', pathKeys: ['path'] },
  createShellReadTool('bash'),
];

// pi as the worker and the CLI read it: its info (info.ts), its normalizer, and its entries as a
// summary request reads them (message-records.ts); the window its registry gives a model
// (its model-window file).

export const PI_DIALECT: DialectDescriptor = {
  ...PI_DIALECT_INFO,
  createNormalizer: createPiNormalizer,
  createMessageReader: () => toPiMessageRecords,
  fileTools: PI_FILE_TOOLS,
  modelWindow: getPiWindowForModel,
};
