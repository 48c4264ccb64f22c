import type { DialectDescriptor } from '../descriptor';
import { ANTHROPIC_MESSAGES_DIALECT_INFO, ANTHROPIC_MESSAGES_JSON_DIALECT_INFO } from './info';
import { toApiTrafficMessageRecords } from './message-records';
import { createAnthropicMessagesNormalizer } from './normalizer';

// Anthropic Messages API traffic as the worker and the CLI read it: the infos (info.ts) and the
// normalizer both layouts share (normalizer.ts), and their messages as a summary request reads them
// (message-records.ts).

/** Messages API requests and responses, one per JSON line, with the normalizer. */
export const ANTHROPIC_MESSAGES_DIALECT: DialectDescriptor = {
  ...ANTHROPIC_MESSAGES_DIALECT_INFO,
  createNormalizer: createAnthropicMessagesNormalizer,
  createMessageReader: () => toApiTrafficMessageRecords,
};

/** The same records as one JSON array, with the same normalizer. */
export const ANTHROPIC_MESSAGES_JSON_DIALECT: DialectDescriptor = {
  ...ANTHROPIC_MESSAGES_JSON_DIALECT_INFO,
  createNormalizer: createAnthropicMessagesNormalizer,
  createMessageReader: () => toApiTrafficMessageRecords,
};
