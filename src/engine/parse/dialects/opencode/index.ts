import type { DialectDescriptor } from '../descriptor';
import { OPENCODE_DIALECT_INFO } from './info';
import { toOpenCodeMessageRecords } from './message-records';
import { createOpenCodeNormalizer } from './normalizer';

// OpenCode's storage as the worker and the CLI read it: its info (info.ts) and one normalizer for
// all of a session's files (normalizer.ts, parts.ts), and its parts as a summary request reads them
// (message-records.ts).

export { OPENCODE_CLEARED } from './info';

export const OPENCODE_DIALECT: DialectDescriptor = {
  ...OPENCODE_DIALECT_INFO,
  createNormalizer: createOpenCodeNormalizer,
  createMessageReader: () => toOpenCodeMessageRecords,
};
