import type { Block, Entry, TokenCount } from '../../../types';
import type { DialectDescriptor } from '../descriptor';
import { CLINE_UI_FILE_TOOLS } from './tool-files';
import {
  createEntry,
  isObject,
  type Json,
  type NormalizedRecord,
  readTokenCount,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';
import { CLINE_UI_DIALECT_INFO, getHistoryCallId } from './info';
import { toClineUiMessageRecords } from './ui-message-records';

// Cline's `ui_messages.json` (docs/sources.md#fmt-cline): one JSON document, an array of `ClineMessage`s
// `{ts, type: "say"|"ask", say|ask, text, images, files, partial, modelInfo,
// conversationHistoryIndex, conversationHistoryDeletedRange}` (cline/cline
// src/shared/ExtensionMessage.ts). This is the log the session's calls and context events come
// from: one `say: "api_req_started"` per API request with its token counts, and the deleted range
// Cline stamps on every message it adds after it truncated or condensed the history.
//
// A Cline task folder opens as one session with this file as its main file. The API history
// (`api_conversation_history.json`, api-history.ts) has the model-facing content but no per-request
// token counts and no trace of truncation (Cline keeps the whole history and applies the deleted
// range when it sends a request), so it is kept beside as a `content` file, like the task
// metadata (`task_metadata.json`, task-metadata.ts).

/** `say` values that are the person's words. */
const USER_SAYS = new Set(['task', 'user_feedback', 'user_feedback_diff']);
/** `say` values that are the model's words. */
export const ASSISTANT_SAYS = new Set(['text', 'completion_result']);
/** `ask` values that put the model's words to the person (JSON `{question|response, options}`). */
export const ASSISTANT_ASKS = new Set(['followup', 'plan_mode_respond', 'act_mode_respond']);
/** Tool calls the UI shows: `{tool, path, content, …}` JSON, or a command line. */
export const TOOL_TYPES = new Set(['tool', 'command', 'browser_action_launch', 'use_mcp_server']);
/** Output of the latest command (ask while it runs, say when it ends). */
const TOOL_OUTPUTS = new Set(['command_output', 'browser_action_result', 'mcp_server_response']);
/**
 * Messages Cline writes about the task rather than the conversation (ExtensionMessage.ts's
 * ClineSay and ClineAsk): shown as meta rows, not counted as unknown.
 */
const META_TYPES = new Set([
  'api_req_finished',
  'api_req_retried',
  'api_req_failed',
  'error',
  'error_retry',
  'info',
  'checkpoint_created',
  'task_progress',
  'deleted_api_reqs',
  'diff_error',
  'clineignore_error',
  'command_permission_denied',
  'shell_integration_warning',
  'shell_integration_warning_with_suggestion',
  'browser_action',
  'mcp_server_request_started',
  'mcp_notification',
  'load_mcp_documentation',
  'generate_explanation',
  'hook_status',
  'hook_output_stream',
  'subagent',
  'use_subagents',
  'subagent_usage',
  'conditional_rules_applied',
  'resume_task',
  'resume_completed_task',
  'mistake_limit_reached',
  'new_task',
  'report_bug',
]);

/**
 * The messages whose `cost` Cline sums into the task's total (getApiMetrics,
 * cline/cline@21cb8d2525bcedf1f4b6890b27a74a14fe7451e4:apps/vscode/src/shared/getApiMetrics.ts:40-64):
 * each request, the requests a checkpoint restore deleted, a subagent batch's usage.
 */
const COST_SAYS = new Set(['api_req_started', 'deleted_api_reqs', 'subagent_usage']);

/** The cost a message's parsed JSON text states, as getApiMetrics reads it (a number, else none). */
function statedCostOf(info: unknown): number | undefined {
  const cost = isObject(info) ? info.cost : undefined;
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : undefined;
}

/** `[start, end]` of the API history no longer sent, or undefined when absent or malformed. */

/**
 * The window a request states: Cline sends "<used> / <window ÷ 1,000>K tokens used (<percent>%)"
 * in the environment details of each request, which `api_req_started`'s `text` holds. The
 * percentage fixes the unit: on the real task of Jeehunter/mcp-vscode-server (Oct 2025),
 * "91,679 / 128K tokens used (72%)" is 71.6% of 128,000 and 69.9% of 131,072, so K is 1,000.
 * Undefined when the request names none.
 */
export function readStatedWindow(text: string): TokenCount | undefined {
  const m = /[\d,]+ \/ ([\d.,]+)K tokens used/.exec(text);
  if (!m) return undefined;
  const thousands = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(thousands) && thousands > 0 ? Math.round(thousands * 1000) : undefined;
}

function rangeOf(value: unknown): [number, number] | undefined {
  return Array.isArray(value) &&
    value.length === 2 &&
    Number.isInteger(value[0]) &&
    Number.isInteger(value[1])
    ? [value[0] as number, value[1] as number]
    : undefined;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function textBlock(text: string, ctx: RecordContext): Block {
  return { kind: 'text', text: preview(text, ctx.previewChars), chars: text.length };
}

/** A normalizer for one UI log (it keeps per-file state: create one per file). */
function createClineUiNormalizer(): RecordNormalizer {
  let model: string | undefined;
  /** Context of each `api_req_started` so far (tokensIn + cacheWrites + cacheReads). */
  const contexts: TokenCount[] = [];
  let range: [number, number] | undefined;
  /** A condense summary waiting for the range change that applies it, and the call it answered. */
  let pendingCompact: { trigger: string; summaryEntryIndex: number; call: number } | undefined;
  let lastCommandId: string | undefined;
  /** Per message of the API history, the tool calls of the UI log made in it so far. */
  const callsByMessage = new Map<number, number>();
  /** The latest `api_req_started` was a failed request (no call). */
  let lastRequestFailed = false;
  /** Whether a request started yet: a `say: text` before the first is the person's task. */
  let requested = false;

  /** The event a changed deleted range shows, as the entry placed before this message's. */
  const rangeEvent = (next: [number, number], ctx: RecordContext, index: number): Entry => {
    const event = createEntry(ctx, index);
    event.type = 'conversationHistoryDeletedRange';
    event.kind = 'meta';
    const from = range ? ` (was ${range[0]}–${range[1]})` : '';
    if (pendingCompact) {
      // Condense and summarize_task set the range when the summary's tool call ends, so the
      // next request is the first without the deleted messages (CondenseHandler.ts,
      // SummarizeTaskHandler.ts): the event follows the call the summary answered.
      const { trigger, summaryEntryIndex, call } = pendingCompact;
      event.compact = {
        kind: 'compact',
        trigger,
        preTokens: contexts[call],
        deletedRange: next,
        followsFileCall: call,
        summaryEntryIndex,
      };
      event.summaryText = `context condensed: API history messages ${next[0]}–${next[1]} dropped${from}`;
      pendingCompact = undefined;
    } else {
      // Cline truncates inside the request it is starting, after its `api_req_started` is written
      // and before it is sent (ContextManager.getNewContextMessagesAndMetadata, called from
      // attemptApiRequest; docs/sources.md#cline-auto-context), so
      // the range shows first on a later message: the event follows the request before that one.
      // A failed request is no call: when the one started was one, the cut precedes the next call.
      const follows = lastRequestFailed ? contexts.length - 1 : contexts.length - 2;
      event.compact = {
        kind: 'truncate',
        // The trigger is the previous request's size (shouldCompactContextWindow): automatic.
        trigger: 'auto',
        preTokens: contexts[follows],
        deletedRange: next,
        followsFileCall: follows,
      };
      event.summaryText = `context truncated: API history messages ${next[0]}–${next[1]} dropped${from}`;
    }
    range = next;
    return event;
  };

  /** Reads a request's usage onto its entry; its parsed text, for the cost it states. */
  const apiRequest = (entry: Entry, text: string, ctx: RecordContext): unknown => {
    const info = parseJson(text);
    if (!isObject(info)) {
      ctx.issue(
        'wrong-shape',
        'warning',
        `At text: expected the request's JSON (tokensIn, tokensOut, …), got ${typeName(info)}`,
        'text',
      );
      return info;
    }
    // Anthropic's split (docs/sources.md#fmt-cline): tokensIn is the uncached input, cacheWrites and
    // cacheReads the cached parts, so the context sent is their sum; Cline's own trigger adds
    // tokensOut (shouldCompactContextWindow, docs/sources.md#cline-doc; docs/sources.md#cline-classic).
    const u = {
      inputTokens: readTokenCount(info.tokensIn, 'text.tokensIn', ctx),
      cacheCreationInputTokens: readTokenCount(info.cacheWrites, 'text.cacheWrites', ctx),
      cacheReadInputTokens: readTokenCount(info.cacheReads, 'text.cacheReads', ctx),
      outputTokens: readTokenCount(info.tokensOut, 'text.tokensOut', ctx),
    };
    const context = u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
    if (typeof info.request === 'string') entry.blocks = [textBlock(info.request, ctx)];
    // A request Cline gave up on says why (`cancelReason`: streaming_failed, user_cancelled,
    // retries_exhausted; `streamingFailedMessage`: the error; ClineApiReqInfo,
    // cline/cline@21cb8d2525bcedf1f4b6890b27a74a14fe7451e4:apps/vscode/src/shared/ExtensionMessage.ts:369-403).
    // With no usage it brought back no answer: a failed request, not a call of context 0 (the
    // real haram-333/fineye task has 7 of 31, each after its `api_req_retried` and `api_req_failed`).
    // A request cancelled after its usage came is a call.
    const failedMessage = typeof info.streamingFailedMessage === 'string' ? info.streamingFailedMessage : '';
    const reason =
      typeof info.cancelReason === 'string' ? info.cancelReason : failedMessage && 'streaming_failed';
    if (reason && context + u.outputTokens === 0) {
      entry.failedRequest = { reason };
      if (failedMessage) entry.failedRequest.detail = preview(failedMessage, ctx.previewChars);
      entry.summaryText = `request ${reason.replace(/_/g, ' ')}: no answer, no usage`;
      return info;
    }
    entry.usage = u;
    entry.model = model ?? 'unknown';
    contexts.push(context);
    const cost = typeof info.cost === 'number' ? ` · $${info.cost.toFixed(4)}` : '';
    const cancel = reason ? ` · ${reason}` : '';
    entry.summaryText = `request: ${context.toLocaleString('en-US')} tokens in context, ${u.outputTokens.toLocaleString('en-US')} out${cost}${cancel}`;
    return info;
  };

  /**
   * A tool call's id: the history's call it shows (info.ts `getHistoryCallId`), so that the result
   * the history holds pairs with it. Its record's `conversationHistoryIndex` is the history's last
   * message when the UI wrote it: the user's (even) before the model's message is added, a read or
   * a write; the model's (odd) after, a command (both real gmfstu tasks: the 80 calls of the two
   * whose result follows are the k-th tool_use of that message, its name the call's). A partial
   * message, or one that states no index, keeps an id of its own.
   */
  const toolCallId = (record: Json, name: string, type: string, ts: number): string => {
    const at = record.conversationHistoryIndex;
    if (record.partial === true || typeof at !== 'number' || !Number.isInteger(at) || at < 0)
      return `${type}:${name}@${ts}`;
    const message = at % 2 === 1 ? at : at + 1;
    const k = callsByMessage.get(message) ?? 0;
    callsByMessage.set(message, k + 1);
    return getHistoryCallId(message, k);
  };

  const toolCall = (entry: Entry, id: string, name: string, text: string, ctx: RecordContext): void => {
    entry.kind = 'assistant';
    entry.role = 'assistant';
    if (name === 'command') {
      lastCommandId = id;
      entry.blocks = [
        {
          kind: 'tool-use',
          id,
          name: 'execute_command',
          inputPreview: preview(text, ctx.previewChars),
          inputChars: text.length,
          command: preview(text, ctx.previewChars),
        },
      ];
      return;
    }
    const input = parseJson(text);
    const fields: Json = isObject(input) ? input : {};
    const tool =
      typeof fields.tool === 'string'
        ? fields.tool
        : typeof fields.toolName === 'string'
          ? fields.toolName
          : name;
    entry.blocks = [
      {
        kind: 'tool-use',
        id,
        name: tool,
        inputPreview: preview(text, ctx.previewChars),
        inputChars: text.length,
        filePath: typeof fields.path === 'string' ? fields.path : undefined,
      },
    ];
  };

  const normalize = (record: unknown, ctx: RecordContext, index: number): NormalizedRecord => {
    const extras: RecordExtras = {};
    if (!isObject(record)) {
      const entry = createEntry(ctx, index);
      ctx.issue(
        'wrong-shape',
        'error',
        `Expected a message object per array element, got ${typeName(record)}`,
      );
      return { entry, extras };
    }
    const type = record.type;
    const value = type === 'say' ? record.say : type === 'ask' ? record.ask : undefined;
    if (typeof value !== 'string') {
      const entry = createEntry(ctx, index);
      entry.type = typeof type === 'string' ? type : '';
      ctx.issue(
        'wrong-shape',
        'warning',
        `At ${type === 'ask' ? 'ask' : 'say'}: expected a say or ask type, got ${typeName(value)}`,
        type === 'ask' ? 'ask' : 'say',
      );
      return { entry, extras };
    }
    if (isObject(record.modelInfo) && typeof record.modelInfo.modelId === 'string') {
      model = record.modelInfo.modelId;
      extras.model = model;
    }
    if (isObject(record.modelInfo) && typeof record.modelInfo.providerId === 'string')
      extras.provider = record.modelInfo.providerId;
    const isRequest = type === 'say' && value === 'api_req_started';
    // A change of range is read before this message counts as a request: a range already on an
    // `api_req_started` was set while the request before it ran.
    const next = rangeOf(record.conversationHistoryDeletedRange);
    let event: Entry | undefined;
    if (next && (range === undefined || next[0] !== range[0] || next[1] !== range[1])) {
      event = rangeEvent(next, ctx, index);
      index++;
    }
    // A condense not applied by the time the next request starts was declined (the person
    // answered it with feedback instead).
    if (isRequest) pendingCompact = undefined;
    // Cline says the task as `text` before its first request (the real UI logs of haram-333/fineye
    // and gmfstu/Online-Card-Architecture open so, the first request's text quoting it inside
    // <task>): the person's words, not the model's.
    const isTask = type === 'say' && value === 'text' && !requested;
    if (isRequest) requested = true;

    const entry = createEntry(ctx, index);
    entry.type = type as string;
    entry.subtype = value;
    if (typeof record.ts === 'number' && Number.isFinite(record.ts)) entry.timestampMs = record.ts;
    if (event) event.timestampMs = entry.timestampMs;
    const text = typeof record.text === 'string' ? record.text : '';
    const ts = entry.timestampMs ?? index;
    let requestInfo: unknown;

    if (isRequest) {
      entry.kind = 'meta';
      requestInfo = apiRequest(entry, text, ctx);
      lastRequestFailed = entry.failedRequest !== undefined;
      const window = readStatedWindow(text);
      if (window !== undefined) extras.contextWindow = window;
    } else if (type === 'say' && (USER_SAYS.has(value) || isTask)) {
      entry.kind = 'user';
      entry.role = 'user';
      entry.blocks = [textBlock(text, ctx)];
      if (Array.isArray(record.images))
        for (const image of record.images) {
          const data = typeof image === 'string' ? image : '';
          entry.blocks.push({
            kind: 'image',
            mediaType: /^data:([^;,]+)/.exec(data)?.[1] ?? 'image',
            base64Chars: data.length,
          });
        }
    } else if (type === 'say' && value === 'reasoning') {
      entry.kind = 'assistant';
      entry.role = 'assistant';
      entry.blocks = [{ kind: 'thinking', text: preview(text, ctx.previewChars), chars: text.length }];
    } else if (
      (type === 'say' && ASSISTANT_SAYS.has(value)) ||
      (type === 'ask' && ASSISTANT_ASKS.has(value))
    ) {
      entry.kind = 'assistant';
      entry.role = 'assistant';
      const asked = type === 'ask' ? parseJson(text) : undefined;
      const words = isObject(asked) ? (asked.question ?? asked.response) : undefined;
      entry.blocks = [textBlock(typeof words === 'string' ? words : text, ctx)];
    } else if (type === 'ask' && (value === 'condense' || value === 'summarize_task')) {
      // The summary, put to the person (condense, manual) or written by the model when Cline
      // asked for it (summarize_task, automatic); applied by the range change that follows.
      entry.kind = 'assistant';
      entry.role = 'assistant';
      entry.blocks = [textBlock(text, ctx)];
      const trigger = value === 'condense' ? 'manual' : 'auto';
      pendingCompact = { trigger, summaryEntryIndex: index, call: contexts.length - 1 };
    } else if (TOOL_TYPES.has(value)) {
      toolCall(entry, toolCallId(record, value, entry.type, ts), value, text, ctx);
      const tool = entry.blocks[0]?.kind === 'tool-use' ? entry.blocks[0].name : '';
      // `{tool: "summarizeTask", content}`: the summary of an automatic condense.
      if (tool === 'summarizeTask' && record.partial !== true)
        pendingCompact = { trigger: 'auto', summaryEntryIndex: index, call: contexts.length - 1 };
    } else if (TOOL_OUTPUTS.has(value)) {
      entry.kind = 'user';
      entry.role = 'user';
      const id = value === 'command_output' ? lastCommandId : undefined;
      // Tool output, not the person's words: not a turn.
      entry.isMeta = id === undefined;
      entry.blocks =
        id === undefined
          ? [textBlock(text, ctx)]
          : [
              {
                kind: 'tool-result',
                toolUseId: id,
                text: preview(text, ctx.previewChars),
                chars: text.length,
                isError: false,
                images: 0,
                persisted: false,
              },
            ];
    } else if (META_TYPES.has(value) || (type === 'ask' && value === 'completion_result')) {
      entry.kind = 'meta';
      if (text) entry.summaryText = preview(text, ctx.previewChars);
    } else {
      // Left as 'unknown': kept, shown and counted (as `say:<value>`) by the session builder.
      if (text) entry.summaryText = preview(text, ctx.previewChars);
    }
    // A request's text was parsed above; the other messages Cline sums are parsed here, once.
    if (type === 'say' && COST_SAYS.has(value)) {
      const cost = statedCostOf(
        isRequest ? requestInfo : text.includes('"cost"') ? parseJson(text) : undefined,
      );
      if (cost !== undefined) extras.statedCostUsd = cost;
    }
    return event ? { entry, extras, event } : { entry, extras };
  };

  return { dialect: 'cline-ui', agent: 'Cline', apiCalls: 'usage-records', normalize };
}

/** The UI log, with its normalizer (the page reads its info, info.ts). */
export const CLINE_UI_DIALECT: DialectDescriptor = {
  ...CLINE_UI_DIALECT_INFO,
  createNormalizer: createClineUiNormalizer,
  createMessageReader: () => toClineUiMessageRecords,
  fileTools: CLINE_UI_FILE_TOOLS,
};
