import type { DialectDescriptor } from '../descriptor';
import { CODEX_CLI_DIALECT_INFO } from './info';
import { toCodexMessageRecords } from './message-records';
import { createCodexCliNormalizer } from './normalizer';
import { CODEX_FILE_TOOLS } from './tool-files';

// Codex CLI as the worker and the CLI read it: its info (info.ts), its rollout normalizer and its
// records as summary-request messages (message-records.ts).

export const CODEX_CLI_DIALECT: DialectDescriptor = {
  ...CODEX_CLI_DIALECT_INFO,
  createNormalizer: createCodexCliNormalizer,
  createMessageReader: () => toCodexMessageRecords,
  fileTools: CODEX_FILE_TOOLS,
};
