import type { DialectDescriptor } from '../descriptor';
import { GEMINI_CLI_DIALECT_INFO, GEMINI_CLI_JSON_DIALECT_INFO, geminiModelWindow } from './info';
import { toGeminiMessageRecords } from './message-records';
import { geminiNormalizer } from './normalizer';

// Gemini CLI's three dialects as the worker and the CLI read them: their infos (info.ts) and
// normalizers (normalizer.ts for the chat log's two layouts, prompt-log.ts for the prompt log), and
// the chat's messages as a summary request reads them (message-records.ts).
export { GEMINI_CLI_PROMPT_LOG_DIALECT } from './prompt-log';

/** The newer JSONL log, where a message's later copy replaces its earlier ones. */
export const GEMINI_CLI_DIALECT: DialectDescriptor = {
  ...GEMINI_CLI_DIALECT_INFO,
  createNormalizer: () => geminiNormalizer,
  createMessageReader: () => toGeminiMessageRecords,
  modelWindow: geminiModelWindow,
};

/** The older whole-JSON chat file: the same messages under `messages`. */
export const GEMINI_CLI_JSON_DIALECT: DialectDescriptor = {
  ...GEMINI_CLI_JSON_DIALECT_INFO,
  createNormalizer: () => ({ ...geminiNormalizer, dialect: 'gemini-cli-json' }),
  createMessageReader: () => toGeminiMessageRecords,
  modelWindow: geminiModelWindow,
};
