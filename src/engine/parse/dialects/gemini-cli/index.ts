import { type DialectDescriptor, NO_RESTORATION, type TranscriptConventions } from '../descriptor';
import { isObject } from '../record';
import { geminiNormalizer, isMessage, isSessionMetadata, NOTICE_TYPES } from './normalizer';

// Gemini CLI as three dialects: its chat log's two layouts (normalizer.ts reads their messages) and
// the project's prompt log (prompt-log.ts).
export { GEMINI_CLI_PROMPT_LOG_DIALECT } from './prompt-log';

/** The largest `.json` chat file read whole (bytes); the CLI keeps one document per session. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

const NAME = /^session-[\w-]+\.jsonl?$/i;
const FOLDER_FILE = /(?:^|\/)chats\/session-[^/]+\.jsonl?$/i;

const TRANSCRIPT: TranscriptConventions = { knownSystemSubtypes: NOTICE_TYPES };

/** The newer JSONL log, where a message's later copy replaces its earlier ones. */
export const GEMINI_CLI_DIALECT: DialectDescriptor = {
  id: 'gemini-cli',
  label: 'Gemini CLI chat log (session-*.jsonl)',
  agent: 'Gemini CLI',
  createNormalizer: () => geminiNormalizer,
  restoration: NO_RESTORATION,
  files: {
    location: '~/.gemini/tmp/<project-hash>/chats/session-*.jsonl',
    matchName: (baseName) => NAME.test(baseName) && /\.jsonl$/i.test(baseName),
    // Its first line (the session metadata, without `messages`) or any message line.
    matchRecord: (value) =>
      isObject(value) && ((isSessionMetadata(value) && !('messages' in value)) || isMessage(value)),
    folderFile: (path) => FOLDER_FILE.test(path),
    supersedeKey: (record) =>
      isObject(record) && typeof record.id === 'string' && !isSessionMetadata(record) ? record.id : undefined,
  },
  transcript: TRANSCRIPT,
  defaultStrategyId: 'gemini-cli',
};

/** The older whole-JSON chat file: the same messages under `messages`. */
export const GEMINI_CLI_JSON_DIALECT: DialectDescriptor = {
  id: 'gemini-cli-json',
  label: 'Gemini CLI chat file (session-*.json)',
  agent: 'Gemini CLI',
  createNormalizer: () => ({ ...geminiNormalizer, dialect: 'gemini-cli-json' }),
  restoration: NO_RESTORATION,
  files: {
    location: '~/.gemini/tmp/<project-hash>/chats/session-*.json',
    matchName: (baseName) => NAME.test(baseName) && /\.json$/i.test(baseName),
    matchRecord: (value) => isObject(value) && isSessionMetadata(value) && Array.isArray(value.messages),
    wholeJson: { maxBytes: MAX_DOCUMENT_BYTES, recordsKey: 'messages' },
  },
  transcript: TRANSCRIPT,
  defaultStrategyId: 'gemini-cli',
};
