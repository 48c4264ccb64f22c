import { createClineMessageReader } from './message-records';
import { normalizeAnthropicContent } from '../shared/anthropic-blocks';
import { CLINE_FILE_TOOLS } from './tool-files';
import type { DialectDescriptor } from '../descriptor';
import type { Block, Entry } from '../../../types';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  readTokenCount,
  typeName,
} from '../record';
import { CLINE_DIALECT_INFO, getHistoryCallId, TOOL_RESULT_TEXT } from './info';

// Cline's task history, `…/saoudrizwan.claude-dev/tasks/<taskId>/api_conversation_history.json`
// (docs/sources.md#fmt-cline): one JSON document, an array of Anthropic-style messages `{role, content, ts,
// modelInfo, metrics}`. Each array element is one record. Newer Cline writes each answer's usage on
// its assistant message, `metrics.tokens: {prompt, completion, cached}`, `prompt` the whole input
// (cached and not) and `cached` the part of it read from the cache
// (cline/cline@64fde3a39be0f0311a2c97729c8fa927b01ff8b0:src/shared/messages/metrics.ts): such a
// message is an API call (read alone; beside its UI log, the UI log's calls count, session-builder.ts).
// That holds for OpenAI-style usage (mike4567/MRA04242026's task, provider "openai"). Through the
// Anthropic provider the counts keep Anthropic's split instead: `prompt` is the uncached input
// alone and `cached` the cache writes and reads on top of it (gmfstu/Online-Card-Architecture's two
// tasks, provider "anthropic": in 83 of 83 calls `prompt` is the UI log's `tokensIn` and `cached`
// its `cacheWrites + cacheReads`, `prompt` 10 beside a `cached` of 9,573 to 83,775). So the message's
// `modelInfo.providerId` picks the reading: "anthropic" reads `cached` on top of `prompt` whatever
// their sizes (a large uncached turn beside a small cache write is still Anthropic's split). A
// message stating no provider, or another one, reads `cached` as a part of `prompt` unless it is
// the larger (it cannot be a part then): with Anthropic's cache on the writes and reads hold all but
// the turn's last message, and with it off `cached` is 0 and both readings agree.

/** An assistant message's `metrics.tokens` as its call's usage (none recorded: no call). */
function readMetrics(metrics: unknown, provider: string | undefined, entry: Entry, ctx: RecordContext): void {
  if (!isObject(metrics) || metrics.tokens === undefined) return;
  const tokens = metrics.tokens;
  if (!isObject(tokens)) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At metrics.tokens: expected an object, got ${typeName(tokens)}`,
      'metrics.tokens',
    );
    return;
  }
  const prompt = readTokenCount(tokens.prompt, 'metrics.tokens.prompt', ctx);
  const cached = readTokenCount(tokens.cached, 'metrics.tokens.cached', ctx);
  const completion = readTokenCount(tokens.completion, 'metrics.tokens.completion', ctx);
  // All zero: no answer came (the real mike4567/MRA04242026 task has one, its text ending
  // "[Response interrupted by API Error]"): a failed request, not a call of context 0, as the UI
  // log's all-zero requests are (ui-messages.ts).
  if (prompt + cached + completion === 0) {
    entry.failedRequest = { reason: 'no_usage' };
    return;
  }
  // On top of the prompt, the cache writes and reads are one count here: read as cache reads (the
  // UI log beside it, whose calls count then, keeps them apart).
  entry.usage =
    provider === 'anthropic' || cached > prompt
      ? {
          inputTokens: prompt,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: cached,
          outputTokens: completion,
        }
      : {
          inputTokens: prompt - cached,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: cached,
          outputTokens: completion,
        };
  entry.model ??= 'unknown';
}

/** One message of the history → one entry. Never throws: shape problems become issues. */
function normalizeClineMessage(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
  const extras: RecordExtras = {};
  const entry = createEntry(ctx, index);
  if (!isObject(record)) {
    ctx.issue('wrong-shape', 'error', `Expected a message object per array element, got ${typeName(record)}`);
    return { entry, extras };
  }
  const role = record.role;
  entry.type = typeof role === 'string' ? role : '';
  if (typeof record.ts === 'number' && Number.isFinite(record.ts)) entry.timestampMs = record.ts;
  if (isObject(record.modelInfo) && typeof record.modelInfo.modelId === 'string')
    extras.model = record.modelInfo.modelId;
  if (isObject(record.modelInfo) && typeof record.modelInfo.providerId === 'string')
    extras.provider = record.modelInfo.providerId;
  if (role !== 'user' && role !== 'assistant') {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At role: expected "user" or "assistant", got ${JSON.stringify(role)}`,
      'role',
    );
    return { entry, extras };
  }
  entry.kind = role;
  entry.role = role;
  if (role === 'assistant' && extras.model !== undefined) entry.model = extras.model;
  if (role === 'assistant') readMetrics(record.metrics, extras.provider, entry, ctx);
  const blocks = normalizeAnthropicContent(record.content, 'content', ctx);
  if (blocks) entry.blocks = blocks;
  else {
    ctx.issue(
      'wrong-shape',
      'error',
      `At content: expected a string or an array, got ${typeName(record.content)}`,
      'content',
    );
  }
  return { entry, extras };
}

/**
 * Pairs the user message's tool results with the tool_use blocks of the assistant message before
 * it (`uses`, their ids in order). Cline writes the result of a tool_use whose `call_id` it cannot
 * map as user text, "${description} Result:\n…", not a tool_result block, in the order it ran the
 * tools (cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/core/task/tools/utils/ToolResultUtils.ts:36-49,
 * 70-76): the real mike4567 task writes 223 of its 231 results so, each naming its tool (the other
 * 8 calls were interrupted: no result follows). Such a text block, with the output blocks after it,
 * becomes the tool_result it is; the rest of the message stays text.
 */
function pairTextResults(blocks: Block[], uses: readonly string[], previewChars: number): Block[] {
  const out: Block[] = [];
  let next = 0;
  let result: Extract<Block, { kind: 'tool-result' }> | undefined;
  for (const b of blocks) {
    if (b.kind === 'text' && next < uses.length && TOOL_RESULT_TEXT.test(b.text)) {
      result = {
        kind: 'tool-result',
        toolUseId: uses[next++]!,
        text: b.text,
        chars: b.chars,
        isError: false,
        images: 0,
        persisted: false,
      };
      out.push(result);
      continue;
    }
    // Older releases write the header alone and the output in the blocks after it, up to the next
    // header or the environment details.
    if (
      result &&
      b.kind === 'text' &&
      !b.text.startsWith('<environment_details>') &&
      !TOOL_RESULT_TEXT.test(b.text)
    ) {
      result.chars += b.chars;
      if (result.text.length < previewChars) result.text = `${result.text}\n${b.text}`.slice(0, previewChars);
      continue;
    }
    if (result && b.kind === 'image') {
      result.images++;
      continue;
    }
    result = undefined;
    out.push(b);
  }
  return out;
}

/**
 * Beside its UI log (the history is then content), the UI log shows the calls and the history
 * holds their results: an assistant message's k-th tool_use takes the id the UI log gives that call
 * (`getHistoryCallId`), and the next message's tool_result blocks follow their call's new id
 * (`renamed`, the last assistant message's old id → new). Returns the map for the next message.
 */
function keyCallsByMessage(entry: Entry, message: number, renamed: Map<string, string>): Map<string, string> {
  if (entry.role === 'user') {
    for (const b of entry.blocks)
      if (b.kind === 'tool-result') b.toolUseId = renamed.get(b.toolUseId) ?? b.toolUseId;
    return new Map();
  }
  const next = new Map<string, string>();
  let k = 0;
  for (const b of entry.blocks) {
    if (b.kind !== 'tool-use') continue;
    const id = getHistoryCallId(message, k++);
    next.set(b.id, id);
    b.id = id;
  }
  return next;
}

/**
 * A call whose input is below this share of the call before it had a truncation before it (ours).
 * The history only grows (Cline writes every message to it and keeps what a truncation or a
 * condense dropped as a range in the task's state, not in this file: ContextManager
 * `getNextTruncationRange`, docs/sources.md#cline-auto-context), so an input that shrinks was cut
 * before it was sent; 2% is left for the system prompt of plan and act modes. On the real
 * mike4567 task every fall of the input is 5.8–87% (nine, four of them in a row after one result
 * of 107,000 tokens, while the messages after it were dropped a quarter at a time).
 */
const TRUNCATED_BELOW_SHARE = 0.98;

function getBlocksChars(blocks: readonly Block[]): number {
  let chars = 0;
  for (const b of blocks)
    chars += b.kind === 'tool-use' ? b.inputChars : b.kind === 'image' || b.kind === 'document' ? 0 : b.chars;
  return chars;
}

/**
 * The range Cline's truncation kept as deleted before a request of `messages` messages
 * (`getNextTruncationRange`, docs/sources.md#cline-auto-context: from message 2, after the first
 * pair; from the end of the range before, half of the rest ("half") or three quarters ("quarter")
 * in whole pairs, ending on an assistant message). Cline picks between the two by the window's
 * limit, which the log does not state: the one whose share of the messages it could drop comes
 * nearer the share of them the log's input lost (`droppedShare`) is taken. Shares, not tokens:
 * the sizes are characters / 4, which undercounts code and JSON; the ratio between messages
 * holds. Undefined when neither drops anything.
 */
function getLikelyTruncation(
  /** Per message m, the size of messages 0 … m − 1 (a prefix sum: each range in O(1)). */
  sizeBefore: readonly number[],
  messages: number,
  before: [number, number] | undefined,
  droppedShare: number,
): [number, number] | undefined {
  const startOfRest = before ? before[1] + 1 : 2;
  const rest = messages - startOfRest;
  const size = (from: number, to: number) => (sizeBefore[to] ?? 0) - (sizeBefore[from] ?? 0);
  const droppable = size(startOfRest, messages);
  let best: { range: [number, number]; miss: number } | undefined;
  for (const remove of [Math.floor(rest / 4) * 2, Math.floor((rest * 3) / 4 / 2) * 2]) {
    if (remove <= 0) continue;
    let end = startOfRest + remove - 1;
    // Cline's ranges end on an assistant message: in the history, user and assistant alternate
    // from the task (message 0), so an assistant message is odd.
    if (end % 2 === 0) end--;
    const dropped = size(startOfRest, end + 1);
    const miss = Math.abs(dropped / Math.max(1, droppable) - droppedShare);
    if (!best || miss < best.miss) best = { range: [2, end], miss };
  }
  return best?.range;
}

/**
 * An assistant message with `metrics.tokens` is a call; a call whose input fell below
 * `TRUNCATED_BELOW_SHARE` of the one before follows a truncation the file does not record, given
 * as an event before it. Beside its UI log, which records the truncations itself, this file is
 * content (`ctx.role`) and gives none.
 */
function createClineNormalizer(): RecordNormalizer {
  let calls = 0;
  let lastInput: number | undefined;
  /** The first call's input: the system prompt, the tools and the task, which no truncation drops. */
  let firstInput: number | undefined;
  /**
   * Per message m of the history so far, the size of the messages before it (characters / 4,
   * summed). A message that is not JSON is never given to the normalizer: the ranges after one
   * are a message early.
   */
  const sizeBefore: number[] = [0];
  /** The range Cline keeps as deleted, in messages (0-based, inclusive), once it truncated. */
  let deleted: [number, number] | undefined;
  /** The tool_use ids of the last assistant message, for the results the next message writes as text. */
  let uses: string[] = [];
  /** Beside its UI log: the last assistant message's tool_use ids as the log wrote them → as keyed. */
  let renamed = new Map<string, string>();
  return {
    dialect: 'cline',
    agent: 'Cline',
    apiCalls: 'usage-records',
    normalize(record, ctx, index) {
      const normalized = normalizeClineMessage(record, ctx, index);
      const { entry } = normalized;
      const message = sizeBefore.length - 1;
      // Beside its UI log, the calls are keyed as the UI log keys them, and so are their results.
      if (entry && ctx.role === 'content') renamed = keyCallsByMessage(entry, message, renamed);
      if (entry?.role === 'user' && uses.length > 0)
        entry.blocks = pairTextResults(entry.blocks, uses, ctx.previewChars);
      if (entry?.role === 'assistant' || entry?.role === 'user')
        uses =
          entry.role === 'assistant'
            ? entry.blocks.flatMap((b) => (b.kind === 'tool-use' ? [b.id] : []))
            : [];
      sizeBefore.push(sizeBefore[message]! + (entry ? getBlocksChars(entry.blocks) / 4 : 0));
      const usage = entry?.usage;
      // Beside its UI log the history is content: the UI log records the truncations itself.
      if (!entry || !usage || entry.failedRequest || ctx.role === 'content') return normalized;
      const input = usage.inputTokens + usage.cacheReadInputTokens;
      calls++;
      firstInput ??= input;
      const before = lastInput;
      lastInput = input;
      if (before === undefined || input >= before * TRUNCATED_BELOW_SHARE) return normalized;
      // The request this message answers was sent with the `message` messages before it.
      // The share of what a truncation could drop (all but the system prompt, tools and task,
      // as the first call sent them) that the input lost.
      const share = (before - input) / Math.max(1, before - (firstInput ?? 0));
      const range = getLikelyTruncation(sizeBefore, message, deleted, share);
      const event = createEntry(ctx, index);
      event.type = 'truncation';
      event.kind = 'meta';
      event.compact = { kind: 'truncate', trigger: 'auto', preTokens: before, followsFileCall: calls - 2 };
      if (range) {
        event.compact.deletedRange = range;
        deleted = range;
      }
      event.summaryText = `context truncated: the input fell from ${before.toLocaleString('en-US')} to ${input.toLocaleString('en-US')} tokens while the history only grew (read from the drop: the file does not record truncations)${range ? `; API history messages ${range[0]}–${range[1]} dropped, as Cline's rule would for that drop` : ''}`;
      event.timestampMs = entry.timestampMs;
      entry.index = index + 1;
      return { ...normalized, event };
    },
  };
}

/** The task history, with its normalizer (the page reads its info, info.ts). */
export const CLINE_DIALECT: DialectDescriptor = {
  ...CLINE_DIALECT_INFO,
  createNormalizer: createClineNormalizer,
  createMessageReader: createClineMessageReader,
  fileTools: CLINE_FILE_TOOLS,
};
