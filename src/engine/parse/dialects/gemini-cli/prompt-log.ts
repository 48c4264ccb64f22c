import type { DialectDescriptor } from '../descriptor';
import {
  createEntry,
  type NormalizedRecord,
  parseTimestamp,
  type RecordContext,
  type RecordNormalizer,
  typeName,
} from '../record';
import { GEMINI_CLI_PROMPT_LOG_DIALECT_INFO, isPrompt } from './info';

// Gemini CLI's prompt log, `~/.gemini/tmp/<project-hash>/logs.json`, beside the project's `chats/`:
// one JSON array of `{sessionId, messageId, type: "user", message, timestamp}`, every prompt the user
// typed in that project, across its sessions (the CLI's up-arrow history; real logs in
// tests/real-logs/shared-corpus.json, brexp/infra and Tar-ive/brain-system). It records no model
// call: each prompt is a user entry, so the file reads as what it is (prompts, no API calls) and
// is listed beside its chats instead of being refused as not a transcript.

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
  // The first prompt's session names the file's (other-sessions.ts): opened beside a chat, the log
  // (every session's prompts) is read after it (`loadOrderKey`) and left out as another session's.
  const extras = { sessionId: record.sessionId };
  if (record.type !== undefined && record.type !== 'user') {
    // Only `user` records are known; another kind is kept and counted (bad-input rules).
    entry.kind = 'unknown';
    return { entry, extras };
  }
  entry.kind = 'user';
  entry.role = 'user';
  entry.blocks = [
    { kind: 'text', text: record.message.slice(0, ctx.previewChars), chars: record.message.length },
  ];
  // Counted by the session it was typed in: the file is said as a prompt log (N prompts over M sessions).
  return { entry, extras: { ...extras, promptOf: record.sessionId } };
}

const promptLogNormalizer: RecordNormalizer = {
  dialect: 'gemini-cli-logs',
  agent: 'Gemini CLI',
  apiCalls: 'usage-records',
  normalize: normalizePrompt,
};

/** The project's prompt log, with its normalizer (the page reads its info, info.ts). */
export const GEMINI_CLI_PROMPT_LOG_DIALECT: DialectDescriptor = {
  ...GEMINI_CLI_PROMPT_LOG_DIALECT_INFO,
  createNormalizer: () => promptLogNormalizer,
};
