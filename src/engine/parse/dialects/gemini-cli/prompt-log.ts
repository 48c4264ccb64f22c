import { type DialectDescriptor, NO_RESTORATION } from '../descriptor';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  parseTimestamp,
  type RecordContext,
  type RecordNormalizer,
  typeName,
} from '../record';

// Gemini CLI's prompt log, `~/.gemini/tmp/<project-hash>/logs.json`, beside the project's `chats/`:
// one JSON array of `{sessionId, messageId, type: "user", message, timestamp}`, every prompt the user
// typed in that project, across its sessions (the CLI's up-arrow history; real logs in
// tests/real-logs/shared-corpus.json, brexp/infra and Tar-ive/brain-system). It records no model
// call: each prompt is a user entry, so the file reads as what it is (prompts, no API calls) and
// is listed beside its chats instead of being refused as not a transcript.

/** A prompt log grows one short record a prompt; anything larger is not one. */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

const NAME = /^logs\.json$/i;
const FOLDER_FILE = /(?:^|\/)\.gemini\/tmp\/[^/]+\/logs\.json$/i;

/** A prompt record: its session, its number in that session, its text. */
interface PromptRecord {
  sessionId: string;
  messageId: number;
  message: string;
  type?: unknown;
  timestamp?: unknown;
}

function isPrompt(value: unknown): value is PromptRecord {
  return (
    isObject(value) &&
    typeof value.sessionId === 'string' &&
    typeof value.messageId === 'number' &&
    typeof value.message === 'string'
  );
}

function normalizePrompt(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
  const entry = createEntry(ctx, index);
  if (!isPrompt(record)) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `Expected a prompt {sessionId, messageId, type, message, timestamp}, got ${typeName(record)}`,
    );
    return { entry, extras: {} };
  }
  entry.type = typeof record.type === 'string' ? record.type : 'user';
  entry.timestampMs = parseTimestamp(record.timestamp, ctx);
  entry.messageId = `${record.sessionId}#${record.messageId}`;
  if (record.type !== undefined && record.type !== 'user') {
    // Only `user` records are known; another kind is kept and counted (bad-input rules).
    entry.kind = 'unknown';
    return { entry, extras: {} };
  }
  entry.kind = 'user';
  entry.role = 'user';
  entry.blocks = [
    { kind: 'text', text: record.message.slice(0, ctx.previewChars), chars: record.message.length },
  ];
  return { entry, extras: {} };
}

const promptLogNormalizer: RecordNormalizer = {
  dialect: 'gemini-cli-logs',
  agent: 'Gemini CLI',
  apiCalls: 'usage-records',
  normalize: normalizePrompt,
};

export const GEMINI_CLI_PROMPT_LOG_DIALECT: DialectDescriptor = {
  id: 'gemini-cli-logs',
  label: 'Gemini CLI prompt log (logs.json: the prompts typed in a project, no model calls)',
  agent: 'Gemini CLI',
  createNormalizer: () => promptLogNormalizer,
  restoration: NO_RESTORATION,
  files: {
    location: '~/.gemini/tmp/<project-hash>/logs.json',
    matchName: (baseName) => NAME.test(baseName),
    matchRecord: (value) => Array.isArray(value) && value.length > 0 && isPrompt(value[0]),
    folderFile: (path) => FOLDER_FILE.test(path),
    wholeJson: { maxBytes: MAX_DOCUMENT_BYTES },
  },
  transcript: { knownSystemSubtypes: new Set() },
  defaultStrategyId: 'gemini-cli',
};
