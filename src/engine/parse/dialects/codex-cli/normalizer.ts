import type { Entry, TokenCount, Usage } from '../../../types';
import {
  createEntry,
  isObject,
  type Json,
  type NormalizedRecord,
  readTokenCount,
  parseTimestamp,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';
import { INJECTED_USER_PREFIXES, RECORD_TYPES } from './info';

import { contentBlocks, reasoningBlock, toolResultBlock, toolUseBlock } from './blocks';
import { inferTrigger, type TurnState } from './trigger';

// Codex CLI rollout records → engine entries (docs/sources.md#fmt-codex). Every line is
// `{timestamp, type, payload}`. Unlike Claude Code, a response is not one record: its reasoning,
// messages and tool calls are separate `response_item`s, and its usage arrives afterwards as an
// `event_msg` `token_count`. So a `token_count` entry is the API call, and the normalizer keeps a
// little per-file state (current model, last counts) to fill compactions, which carry no numbers.

/** `event_msg` payload types seen in rollouts 0.116–0.121 (docs/sources.md#fmt-codex); others are unknown. */
const PROGRESS_EVENTS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'exec_command_end',
  'mcp_tool_call_end',
  'patch_apply_end',
  'web_search_end',
  'item_completed',
]);
const META_EVENTS = new Set(['task_started', 'task_complete', 'turn_aborted', 'context_compacted', 'error']);

interface TokenUsage {
  inputTokens: TokenCount;
  cachedInputTokens: TokenCount;
  outputTokens: TokenCount;
  reasoningOutputTokens: TokenCount;
  totalTokens: TokenCount;
}

function tokenUsageOf(value: unknown, path: string, ctx: RecordContext): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const count = (key: string) => readTokenCount(value[key], `${path}.${key}`, ctx);
  return {
    inputTokens: count('input_tokens'),
    cachedInputTokens: count('cached_input_tokens'),
    outputTokens: count('output_tokens'),
    reasoningOutputTokens: count('reasoning_output_tokens'),
    totalTokens: count('total_tokens'),
  };
}

const sameUsage = (a: TokenUsage, b: TokenUsage): boolean =>
  a.inputTokens === b.inputTokens &&
  a.cachedInputTokens === b.cachedInputTokens &&
  a.outputTokens === b.outputTokens &&
  a.reasoningOutputTokens === b.reasoningOutputTokens &&
  a.totalTokens === b.totalTokens;

/** `input_tokens` is the whole context (cached part included), so contextTokens = input_tokens. */
function usageOf(last: TokenUsage): Usage {
  const cached = Math.min(last.cachedInputTokens, last.inputTokens);
  return {
    inputTokens: last.inputTokens - cached,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: cached,
    // `reasoning_output_tokens` is part of `output_tokens`, not added to it: `total_tokens` =
    // input + output (a real rollout: input 187,803 + output 2,296 = total 190,099, reasoning 1,539
    // of the output; LAF-US__IDAHO-VAULT rollout-2026-03-24T21-27-50). Adding it counted reasoning twice.
    outputTokens: last.outputTokens,
  };
}

/** A normalizer for one rollout file (it keeps per-file state: create one per file). */
export function createCodexCliNormalizer(): RecordNormalizer {
  let model: string | undefined;
  const turn: TurnState = { modelOutput: false, open: false };
  /** `total_token_usage` of the previous `token_count`: an unchanged total means no new request. */
  let lastTotal: TokenUsage | undefined;
  /** Every running total seen: one seen before, not just before, is a repeat out of order. */
  const seenTotals = new Set<string>();
  let outOfOrderSaid = false;
  let highestTotal = 0;
  /** Context of the latest request, for the next compaction's `preTokens`. */
  let lastContextTokens: TokenCount | undefined;
  let compactedSinceLastCall = false;

  const tokenCount = (entry: Entry, p: Json, extras: RecordExtras, ctx: RecordContext): void => {
    const info = isObject(p.info) ? p.info : undefined;
    if (info && typeof info.model_context_window === 'number') {
      extras.contextWindow = info.model_context_window;
      turn.window = info.model_context_window;
    }
    const last = info ? tokenUsageOf(info.last_token_usage, 'payload.info.last_token_usage', ctx) : undefined;
    if (!last) {
      entry.summaryText = 'rate limits only (no request)';
      return;
    }
    const total = tokenUsageOf(info?.total_token_usage, 'payload.info.total_token_usage', ctx);
    // Codex re-sends the latest count (rate-limit updates, turn end); the running total then
    // stays put. After a compaction it also sends the new history's estimate: zero input, an
    // unchanged total and `total_tokens` = the compacted context.
    const repeat = total !== undefined && lastTotal !== undefined && sameUsage(total, lastTotal);
    const key = total && Object.values(total).join(',');
    // The running total only grows: a count seen before that comes back later, or one below the
    // highest, is a line out of order (a shuffled or spliced rollout). Except a total that equals
    // its own request: the counter restarted from zero, as when `codex resume` continues the
    // rollout in a new process (a real one, MoonLadderStudios/MoonMind, CLI 0.57: 2,993,540, a
    // 3-hour gap, then 60,023 = that request's own usage, growing again from there).
    const seenBefore = !repeat && key !== undefined && seenTotals.has(key);
    const restarted =
      !seenBefore && total !== undefined && total.totalTokens < highestTotal && sameUsage(total, last);
    if (restarted) highestTotal = 0;
    if ((seenBefore || (total && total.totalTokens < highestTotal)) && !outOfOrderSaid) {
      outOfOrderSaid = true;
      ctx.issue(
        'wrong-shape',
        'warning',
        `At payload.info.total_token_usage: a running total below one before it (token_count lines out of order)${seenBefore ? ': a repeat, not counted again' : ''}`,
        'payload.info.total_token_usage',
      );
    }
    if (seenBefore) {
      entry.summaryText = 'repeat of an earlier count, out of order (no new request)';
      return;
    }
    if (key !== undefined) seenTotals.add(key);
    if (total) highestTotal = Math.max(highestTotal, total.totalTokens);
    if (total) lastTotal = total;
    if (repeat) {
      if (
        last.inputTokens === 0 &&
        last.outputTokens === 0 &&
        last.totalTokens > 0 &&
        compactedSinceLastCall
      ) {
        extras.compactedContextTokens = last.totalTokens;
        entry.summaryText = `context after compaction, estimated: ${last.totalTokens.toLocaleString('en-US')} tokens (no request)`;
      } else {
        entry.summaryText = 'repeat of the previous count (no new request)';
      }
      return;
    }
    entry.usage = usageOf(last);
    entry.model = model ?? 'unknown';
    lastContextTokens = last.inputTokens;
    compactedSinceLastCall = false;
    entry.summaryText = `request: ${last.inputTokens.toLocaleString('en-US')} tokens in, ${last.outputTokens.toLocaleString('en-US')} out${last.reasoningOutputTokens ? ` (${last.reasoningOutputTokens.toLocaleString('en-US')} of it reasoning)` : ''}${restarted ? ' (running total restarted: a new Codex process, as on resume)' : ''}`;
  };

  /** A response item moves the turn on: a prompt starts one, the model's items are its output. */
  const followTurn = (entry: Entry, extras: RecordExtras): void => {
    if (entry.kind === 'assistant') {
      turn.modelOutput = true;
      // A message ends the model's answer unless a tool call follows it (trigger.ts `answered`).
      turn.answered = entry.subtype === 'message';
    } else if (extras.promptText !== undefined)
      Object.assign(turn, { open: true, modelOutput: false, answered: false, prompt: extras.promptText });
    else turn.answered = false;
  };

  const normalize = (record: unknown, ctx: RecordContext, index: number): NormalizedRecord => {
    const extras: RecordExtras = {};
    const entry = createEntry(ctx, index);
    if (!isObject(record)) {
      ctx.issue('wrong-shape', 'error', `Expected a JSON object per line, got ${typeName(record)}`);
      return { entry, extras };
    }
    const type = typeof record.type === 'string' ? record.type : '';
    if (!('payload' in record) && !RECORD_TYPES.has(type)) return earlyRecord(record, entry, ctx, extras);
    entry.type = type;
    entry.timestampMs = parseTimestamp(record.timestamp, ctx);
    const p = record.payload;
    if (!isObject(p)) {
      ctx.issue('wrong-shape', 'error', `At payload: expected an object, got ${typeName(p)}`, 'payload');
      return { entry, extras };
    }
    const payloadType = typeof p.type === 'string' ? p.type : undefined;

    switch (type) {
      case 'session_meta': {
        entry.kind = 'meta';
        if (typeof p.cli_version === 'string') extras.version = p.cli_version;
        if (typeof p.cwd === 'string') extras.cwd = p.cwd;
        if (typeof p.id === 'string') extras.sessionId = p.id;
        if (isObject(p.git) && typeof p.git.branch === 'string') extras.gitBranch = p.git.branch;
        entry.summaryText = [p.originator, p.cli_version, p.model_provider]
          .filter((x) => typeof x === 'string')
          .join(' ');
        break;
      }
      case 'turn_context': {
        entry.kind = 'meta';
        if (typeof p.model === 'string') {
          model = p.model;
          extras.model = p.model;
          entry.model = p.model;
        }
        if (typeof p.cwd === 'string') extras.cwd = p.cwd;
        entry.summaryText = [p.model, p.effort ?? p.reasoning_effort, p.approval_policy]
          .filter((x) => typeof x === 'string')
          .join(' · ');
        break;
      }
      case 'compacted': {
        entry.kind = 'meta';
        // No trigger or token numbers in the record (docs/sources.md#fmt-codex): the trigger is
        // inferred from where it falls (inferTrigger), the numbers come from `token_count`s.
        const { trigger, why } = inferTrigger(turn, lastContextTokens);
        // The record is its own summary entry: `message` holds the summary of a local compaction;
        // a remote one's is encrypted in its replacement history (info.ts, readSummaryNote).
        entry.compact = { trigger, preTokens: lastContextTokens, summaryEntryIndex: index };
        compactedSinceLastCall = true;
        const history = Array.isArray(p.replacement_history) ? p.replacement_history.length : undefined;
        const message = typeof p.message === 'string' ? p.message : '';
        entry.summaryText = `${
          history === undefined
            ? `compacted${message ? `: ${preview(message, ctx.previewChars)}` : ''}`
            : `replacement history: ${history} items${message ? ` · ${preview(message, ctx.previewChars)}` : ''}`
        } · ${trigger}, inferred: ${why}`;
        break;
      }
      case 'response_item': {
        entry.subtype = payloadType;
        responseItem(entry, p, payloadType, ctx, extras);
        followTurn(entry, extras);
        break;
      }
      case 'event_msg': {
        entry.subtype = payloadType;
        entry.detailType = payloadType;
        if (payloadType === 'task_started')
          Object.assign(turn, { open: true, modelOutput: false, taskEvents: true });
        else if (payloadType === 'task_complete' || payloadType === 'turn_aborted')
          Object.assign(turn, { open: false, taskEvents: true });
        if (payloadType === 'token_count') {
          entry.kind = 'meta';
          tokenCount(entry, p, extras, ctx);
        } else if (payloadType === 'thread_name_updated') {
          // The thread's name, set by the person or generated (`Op::AutoRenameThread`); no
          // `thread_name`: taken back (openai/codex@edb4efee codex-rs/protocol/src/protocol.rs,
          // `ThreadNameUpdatedEvent`; written to the rollout, policy.rs).
          entry.kind = 'meta';
          const name = typeof p.thread_name === 'string' ? p.thread_name : '';
          entry.summaryText = name
            ? `thread name: ${preview(name, ctx.previewChars)}`
            : 'thread name cleared';
          extras.title = { text: name, source: 'thread_name_updated', rank: 1 };
        } else if (payloadType !== undefined && PROGRESS_EVENTS.has(payloadType)) {
          entry.kind = 'progress';
          const text = p.message ?? p.text;
          if (typeof text === 'string') entry.summaryText = preview(text, ctx.previewChars);
        } else if (payloadType !== undefined && META_EVENTS.has(payloadType)) {
          entry.kind = 'meta';
          if (typeof p.message === 'string') entry.summaryText = preview(p.message, ctx.previewChars);
          else if (typeof p.reason === 'string') entry.summaryText = p.reason;
          if (typeof p.model_context_window === 'number') extras.contextWindow = p.model_context_window;
        }
        break;
      }
    }
    return { entry, extras };
  };

  return { dialect: 'codex-cli', agent: 'Codex CLI', apiCalls: 'usage-records', normalize };
}

/**
 * A line of the early rollout format (Codex before openai/codex PR #3380, merged 2025-09-09;
 * JaydenXsoe/ocodex@097782c7755f5df3016f580f9c9bc9c7f9d47755:codex-rs/core/src/rollout.rs:29-42,
 * :303-346): a first line `{id, timestamp, instructions, git?}`, then response items written bare
 * (`{type: "message" | "function_call" | "function_call_output" | "reasoning" | …}`) and
 * `{record_type: "state"}` lines. No event is written, so no `token_count`: the format records no
 * usage, and its calls cannot be counted or given a context (a session-wide `no-usage` note).
 * Its `/compact` kept the summary in memory only (codex.rs:2607-2611): no compaction is written.
 */
function earlyRecord(record: Json, entry: Entry, ctx: RecordContext, extras: RecordExtras): NormalizedRecord {
  if (record.record_type === 'state') {
    entry.type = 'state';
    entry.kind = 'meta';
    entry.summaryText = 'session state (early rollout format)';
  } else if (typeof record.type === 'string') {
    entry.type = 'response_item';
    entry.subtype = record.type;
    responseItem(entry, record, record.type, ctx, extras);
  } else if (typeof record.id === 'string' && 'instructions' in record) {
    entry.type = 'session_meta';
    entry.kind = 'meta';
    entry.timestampMs = parseTimestamp(record.timestamp, ctx);
    extras.sessionId = record.id;
    if (isObject(record.git) && typeof record.git.branch === 'string') extras.gitBranch = record.git.branch;
    entry.summaryText = 'early rollout format (before openai/codex PR #3380): no usage recorded';
    ctx.issue(
      'no-usage',
      'info',
      'Early Codex rollout format (before openai/codex PR #3380, 2025-09-09): it records no token counts, so no API call with a context can be read',
    );
  } else {
    ctx.issue(
      'wrong-shape',
      'error',
      `At payload: expected an object, got ${typeName(record.payload)}`,
      'payload',
    );
  }
  return { entry, extras };
}

function responseItem(
  entry: Entry,
  p: Json,
  payloadType: string | undefined,
  ctx: RecordContext,
  extras: RecordExtras,
): void {
  switch (payloadType) {
    case 'message': {
      const role = p.role;
      if (role !== 'user' && role !== 'assistant' && role !== 'developer' && role !== 'system') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At payload.role: expected user, assistant or developer, got ${JSON.stringify(role)}`,
          'payload.role',
        );
        return;
      }
      const kind = role === 'assistant' ? 'assistant' : 'user';
      entry.kind = kind;
      entry.role = kind;
      entry.blocks = contentBlocks(p.content, ctx);
      if (role === 'developer' || role === 'system') entry.isMeta = true;
      else if (kind === 'user') {
        const first = entry.blocks[0];
        const text = first?.kind === 'text' ? first.text.trimStart() : '';
        if (INJECTED_USER_PREFIXES.some((prefix) => text.startsWith(prefix))) entry.isMeta = true;
        else if (text) extras.promptText = text;
      }
      return;
    }
    case 'reasoning':
      entry.kind = 'assistant';
      entry.role = 'assistant';
      entry.blocks = [reasoningBlock(p, ctx)];
      return;
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'web_search_call':
      entry.kind = 'assistant';
      entry.role = 'assistant';
      entry.blocks = [toolUseBlock(p, payloadType, ctx)];
      return;
    case 'function_call_output':
    case 'custom_tool_call_output': {
      entry.kind = 'user';
      entry.role = 'user';
      const block = toolResultBlock(p, ctx);
      if (block) entry.blocks = [block];
      return;
    }
    case 'ghost_snapshot':
      // A git snapshot Codex takes for `/undo`, kept across compactions; not sent to the model
      // (openai/codex@001cb8e233f250c7086c791c51390286c087faea:codex-rs/core/src/rollout/policy.rs:30).
      entry.kind = 'meta';
      entry.summaryText = 'ghost snapshot (for /undo)';
      return;
    default:
      // Left as 'unknown': kept, shown and counted by the session builder.
      return;
  }
}
