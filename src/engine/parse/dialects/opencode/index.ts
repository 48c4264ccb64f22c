import type { DialectDescriptor } from '../descriptor';
import { OPENCODE_DIALECT_INFO } from './info';
import { toOpenCodeMessageRecords } from './message-records';
import { createOpenCodeNormalizer } from './normalizer';
import type { FileToolSpec } from '../descriptor';
import { createShellReadTool } from '../shared/shell-reads';

/**
 * OpenCode's file tools: `read` with `filePath` (anomalyco/opencode@00937b92a3d7d378d71a0179c0836235ee882952:
 * packages/opencode/src/tool/read.ts:27 and :33), `edit` and `write` with the same key (edit.ts,
 * write.ts beside it), `bash` its shell; the two real OpenCode databases' 18 `read`, 10 `edit`
 * and 12 `write` calls name theirs so.
 */
const OPENCODE_FILE_TOOLS: readonly FileToolSpec[] = [
  { name: 'read', action: 'read', pathKeys: ['filePath'] },
  { name: 'edit', action: 'edit', pathKeys: ['filePath'] },
  { name: 'write', action: 'write', pathKeys: ['filePath'] },
  createShellReadTool('bash'),
];

// OpenCode's storage as the worker and the CLI read it: its info (info.ts) and one normalizer for
// all of a session's files (normalizer.ts, parts.ts), and its parts as a summary request reads them
// (message-records.ts).

export { OPENCODE_CLEARED } from './info';

export const OPENCODE_DIALECT: DialectDescriptor = {
  ...OPENCODE_DIALECT_INFO,
  createNormalizer: createOpenCodeNormalizer,
  createMessageReader: () => toOpenCodeMessageRecords,
  fileTools: OPENCODE_FILE_TOOLS,
};
