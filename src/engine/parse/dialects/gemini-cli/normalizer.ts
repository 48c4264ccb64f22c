import type { Block, Usage } from '../../../types';
import {
  createEntry,
  isObject,
  type Json,
  jsonText,
  type NormalizedRecord,
  readTokenCount,
  parseTimestamp,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';
import { GEMINI_DEFAULT_TOKEN_LIMIT, isSessionMetadata, NOTICE_TYPES } from './info';

// Gemini CLI's chat recordings, `~/.gemini/tmp/<project-hash>/chats/session-<time>-<id8>.json(l)`
// (google-gemini/gemini-cli `packages/core/src/services/chatRecordingService.ts` and
// `chatRecordingTypes.ts`; `docs/cli/session-management.md`). The fixtures are written from those
// sources; real chats: the corpus' foreign/ (Tar-ive/brain-system, brexp/infra) and
// tests/real-logs/manifest.json (fabien-lessirard/dotfiles, with a compression notice).
//
// Two layouts, one record shape:
// - `session-*.json` (older): one document `{sessionId, projectHash, startTime, lastUpdated,
//   messages: [...]}`; each message is a record (the descriptor's whole-document hook).
// - `session-*.jsonl` (newer): the first line is that metadata without `messages`; then each
//   message record is appended whenever it changes (tokens patched in, tool calls added), so a
//   later line with the same `id` replaces the earlier one (`pushMessage`); `{"$set": {...}}`
//   updates the metadata and `{"$rewindTo": id}` marks a rewind.
//
// A message record: `{id, timestamp, type: "user" | "gemini" | "info" | "error" | "warning",
// content (string or Gemini parts), displayContent?, toolCalls?: [{id, name, args, result
// (parts with functionResponse), status, …}], thoughts?: [{subject, description, timestamp}],
// tokens?: {input, output, cached, thoughts, tool, total}, model?}`. `tokens` is one response's
// usageMetadata: input = promptTokenCount (cached included), cached = cachedContentTokenCount,
// output = candidatesTokenCount, thoughts = thoughtsTokenCount (billed as output).
//
// Compression (`chatCompressionService.ts`) is not written as its own record: the chat file keeps
// the messages as they were sent, and a `$set` of `messages` (the CLI syncing its in-memory
// history) is kept as a metadata record, counted, not read as a compaction. A `$rewindTo` is kept
// the same way; the rewound messages stay in the session. What an automatic compression does
// leave is the notice the CLI shows, recorded as an `info` message (useGeminiStream.ts
// `handleChatCompressionEvent`): "IMPORTANT: This conversation exceeded the compress threshold. …
// (compressed from: N to M tokens)." It is read as the compaction, N its tokens before and M the
// compressed history's (Gemini CLI's own counts). Seen in a real chat (fabien-lessirard/dotfiles,
// 2026-02, gemini-2.5-pro: "compressed from: 526049 to 115614 tokens").
const COMPRESSED =
  /^IMPORTANT: This conversation exceeded the compress threshold\. A compressed context will be sent for future messages \(compressed from: (\d+|unknown) to (\d+|unknown) tokens\)/;

// From v0.33.0 the notice reads "Context compressed from X% to Y%." (google-gemini/gemini-cli@1e2afbb51441a9ab7bc18297a81dd8b6323a3003:packages/cli/src/ui/hooks/useGeminiStream.ts:1069-1080):
// N and M as whole percentages of `tokenLimit(config.getModel())`, 1,048,576 for every model then
// (v0.33.0 packages/core/src/core/tokenLimits.ts:18-32). The counts read back as that share of
// the limit, within ±0.5% of it (±5,243 tokens).
const COMPRESSED_PERCENT = /^Context compressed from (\d+)% to (\d+)%\.$/;

/** The counts (N before, M after) of a compression notice, either wording; undefined: not one. */
function readCompressionNotice(
  content: string,
): { preTokens: number | undefined; postTokens: number | undefined } | undefined {
  const exact = COMPRESSED.exec(content);
  const count = (s: string | undefined) => (s === undefined || s === 'unknown' ? undefined : Number(s));
  if (exact) return { preTokens: count(exact[1]), postTokens: count(exact[2]) };
  const percent = COMPRESSED_PERCENT.exec(content);
  const share = (s: string) => Math.round((Number(s) / 100) * GEMINI_DEFAULT_TOKEN_LIMIT);
  return percent ? { preTokens: share(percent[1]!), postTokens: share(percent[2]!) } : undefined;
}

/** The text of a `PartListUnion` (a string, one part or an array of parts), and its length. */
export function partsText(content: unknown, max: number): { text: string; chars: number } {
  if (typeof content === 'string') return { text: preview(content, max), chars: content.length };
  const parts = Array.isArray(content) ? content : [content];
  let text = '';
  let chars = 0;
  for (const part of parts) {
    const t =
      typeof part === 'string' ? part : isObject(part) && typeof part.text === 'string' ? part.text : '';
    if (t === '') continue;
    chars += t.length;
    if (text.length < max) text += (text ? '\n' : '') + preview(t, max - text.length);
  }
  return { text, chars };
}

/** A tool call's result: the `functionResponse.response` of its parts, as JSON text. */
export function resultText(result: unknown, max: number): { text: string; chars: number; isError: boolean } {
  const parts = Array.isArray(result) ? result : result == null ? [] : [result];
  let text = '';
  let isError = false;
  for (const part of parts) {
    if (!isObject(part)) continue;
    const response = isObject(part.functionResponse) ? part.functionResponse.response : undefined;
    if (isObject(response)) {
      if ('error' in response) isError = true;
      const out = response.output ?? response.error ?? response;
      text += (text ? '\n' : '') + (typeof out === 'string' ? out : (JSON.stringify(out) ?? ''));
    } else if (typeof part.text === 'string') text += (text ? '\n' : '') + part.text;
  }
  return { text: preview(text, max), chars: text.length, isError };
}

function toolBlocks(calls: unknown, ctx: RecordContext): Block[] {
  if (calls === undefined) return [];
  if (!Array.isArray(calls)) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At toolCalls: expected an array, got ${typeName(calls)}`,
      'toolCalls',
    );
    return [];
  }
  const uses: Block[] = [];
  const results: Block[] = [];
  const max = ctx.previewChars;
  calls.forEach((call, i) => {
    if (!isObject(call) || typeof call.id !== 'string') {
      ctx.issue(
        'wrong-shape',
        'warning',
        `At toolCalls[${i}].id: expected a string, got ${typeName(isObject(call) ? call.id : call)}`,
        `toolCalls[${i}].id`,
      );
      return;
    }
    const args = isObject(call.args) ? call.args : {};
    const argsJson = jsonText(args, ctx, `toolCalls[${i}].args`);
    const filePath = args.file_path ?? args.absolute_path ?? args.path;
    uses.push({
      kind: 'tool-use',
      id: call.id,
      name: typeof call.name === 'string' ? call.name : '(unnamed)',
      inputPreview: preview(argsJson, max),
      inputChars: argsJson.length,
      filePath: typeof filePath === 'string' ? filePath : undefined,
      command: typeof args.command === 'string' ? preview(args.command, max) : undefined,
    });
    // The result is recorded on the call itself; it went back to the model as the next request's
    // functionResponse part, so it is shown as the call's result block.
    if (call.result !== undefined && call.result !== null) {
      const { text, chars, isError } = resultText(call.result, max);
      results.push({
        kind: 'tool-result',
        toolUseId: call.id,
        text,
        chars,
        images: 0,
        isError: isError || call.status === 'error',
        persisted: false,
      });
    }
  });
  return [...uses, ...results];
}

function readUsage(tokens: unknown, ctx: RecordContext): Usage | undefined {
  if (tokens === undefined || tokens === null) return undefined;
  if (!isObject(tokens)) {
    ctx.issue('wrong-shape', 'warning', `At tokens: expected an object, got ${typeName(tokens)}`, 'tokens');
    return undefined;
  }
  const count = (key: string) => readTokenCount(tokens[key], `tokens.${key}`, ctx);
  const input = count('input');
  const cached = Math.min(count('cached'), input);
  return {
    inputTokens: input - cached,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: cached,
    outputTokens: count('output') + count('thoughts'),
  };
}

/** One record of either layout → one entry. Never throws: shape problems become issues. */
function normalizeGeminiRecord(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
  const extras: RecordExtras = {};
  const entry = createEntry(ctx, index);
  if (!isObject(record)) {
    ctx.issue('wrong-shape', 'error', `Expected a record object, got ${typeName(record)}`);
    return { entry, extras };
  }
  if (isObject(record.$set)) {
    entry.type = '$set';
    entry.kind = 'meta';
    entry.summaryText = `metadata: ${Object.keys(record.$set).join(', ')}`;
    if (typeof record.$set.sessionId === 'string') extras.sessionId = record.$set.sessionId;
    return { entry, extras };
  }
  if (typeof record.$rewindTo === 'string') {
    entry.type = '$rewindTo';
    entry.kind = 'meta';
    entry.summaryText = `rewind to message ${record.$rewindTo}`;
    return { entry, extras };
  }
  if (isSessionMetadata(record) && record.id === undefined) {
    entry.type = 'session';
    entry.kind = 'meta';
    extras.sessionId = record.sessionId as string;
    entry.timestampMs = parseTimestamp(record.startTime, ctx);
    entry.summaryText = `session ${String(record.sessionId)}`;
    return { entry, extras };
  }
  const type = record.type;
  entry.type = typeof type === 'string' ? type : '';
  if (typeof record.id !== 'string') {
    ctx.issue('wrong-shape', 'warning', `At id: expected a string, got ${typeName(record.id)}`, 'id');
  } else entry.messageId = record.id;
  entry.timestampMs = parseTimestamp(record.timestamp, ctx);
  const { text, chars } = partsText(record.content, ctx.previewChars);
  if (type === 'user') {
    entry.kind = 'user';
    entry.role = 'user';
    entry.blocks = [{ kind: 'text', text, chars }];
    return { entry, extras };
  }
  if (typeof type === 'string' && NOTICE_TYPES.has(type)) {
    entry.kind = 'system';
    entry.subtype = type;
    entry.summaryText = preview(text, ctx.previewChars);
    const compressed =
      type === 'info' && typeof record.content === 'string'
        ? readCompressionNotice(record.content)
        : undefined;
    // M counts the compressed history, not the summary alone: the snapshot, the model's
    // acknowledgement and the last 30% of the messages kept (strategies/gemini-cli/index.ts).
    if (compressed) entry.compact = { kind: 'compact', trigger: 'auto', ...compressed, postScope: 'history' };
    return { entry, extras };
  }
  if (type !== 'gemini') {
    // An unknown message type is kept and counted (bad-input rules).
    entry.kind = 'unknown';
    return { entry, extras };
  }
  entry.kind = 'assistant';
  entry.role = 'assistant';
  if (typeof record.model === 'string') {
    entry.model = record.model;
    extras.model = record.model;
  }
  if (Array.isArray(record.thoughts)) {
    for (const thought of record.thoughts) {
      if (!isObject(thought)) continue;
      const t = [thought.subject, thought.description].filter((s) => typeof s === 'string').join(': ');
      entry.blocks.push({
        kind: 'thinking',
        text: preview(t, ctx.previewChars),
        chars: t.length,
      });
    }
  }
  if (chars > 0) entry.blocks.push({ kind: 'text', text, chars });
  entry.blocks.push(...toolBlocks(record.toolCalls, ctx));
  entry.usage = readUsage(record.tokens, ctx);
  entry.isSynthetic = entry.usage === undefined && chars === 0 && isCancelledToolsCarrier(record);
  return { entry, extras };
}

/**
 * A `gemini` message the recorder wrote to hold tool calls the person cancelled, not a response:
 * `recordToolCalls` appends the calls to the last message when it is a `gemini` one, and otherwise
 * makes a new `gemini` message of empty content with them, taking the response's queued thoughts
 * and tokens if any are still queued (v0.39.1,
 * google-gemini/gemini-cli@4d73f3413949ae5c638804c5eac27a9bcd0567ca:packages/core/src/services/chatRecordingService.ts:517-560).
 * When a call is cancelled the CLI first writes its "Request cancelled." notice, so the cancelled
 * calls come after an `info` message and the response that asked for them already holds its
 * tokens: a message with no tokens, no text, no thoughts and only cancelled calls. Real chats hold 30 (27 in
 * fabien-lessirard/dotfiles' 2026-02 chats, 3 in AnthonyontheHub/TP-Tutor's 2026-04 `.jsonl`
 * ones), each right after "Request cancelled."; counted as calls they were calls of context 0.
 * It stays in the transcript (its calls and their results went out with the next request);
 * it is no API call (`isSynthetic`).
 */
function isCancelledToolsCarrier(record: Json): boolean {
  const calls = record.toolCalls;
  const thoughts = record.thoughts;
  return (
    Array.isArray(calls) &&
    calls.length > 0 &&
    calls.every((call) => isObject(call) && call.status === 'cancelled') &&
    (!Array.isArray(thoughts) || thoughts.length === 0)
  );
}

/** Stateless per record: the replaced copies are dropped before records reach it. */
export const geminiNormalizer: RecordNormalizer = {
  dialect: 'gemini-cli',
  agent: 'Gemini CLI',
  // A call is a `gemini` message: each is one model response, so one request. One without a valid
  // `tokens` (cut off mid-write, or written by a CLI that did not patch them in) is still a call:
  // its usage is all zeros and the page estimates its context, saying so (query/usage-coverage.ts).
  // The holder of cancelled tool calls (`isCancelledToolsCarrier`) is none.
  apiCalls: 'assistant-entries',
  normalize: normalizeGeminiRecord,
};
