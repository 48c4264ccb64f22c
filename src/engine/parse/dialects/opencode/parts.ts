import type { Block, Entry, TokenCount, Usage } from '../../../types';
import {
  describeTimeMs,
  isObject,
  isPlausibleTimeMs,
  type Json,
  jsonText,
  num,
  preview,
  type RecordContext,
  readTokenCount,
  typeName,
} from '../record';
import { OPENCODE_CLEARED } from './info';

// One OpenCode part (message-v2.ts `Part`) as entries: what a part holds, apart from the session
// state a compaction and a prune leave (normalizer.ts).

export const ZERO: Usage = {
  inputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
  outputTokens: 0,
};

/**
 * Whether a step's `input` already counts the tokens read from the cache. OpenCode stores what
 * its `getUsage` makes of the AI SDK's usage. Later versions subtract the cache reads and writes
 * from `inputTokens` unless the Anthropic or Bedrock SDK reported them apart, and record
 * `tokens.total` (anomalyco/opencode@901135543fe03ad58caeb01c17ac422ffd596cbf:
 * packages/opencode/src/session/index.ts, `getUsage`: "OpenRouter provides inputTokens as the
 * total count of input tokens (including cached)… Anthropic does it differently"); earlier ones
 * (0.6.x) stored `input: usage.inputTokens` as it came, with `cache.read` beside it. So a record
 * without `total`, from a provider that is not Anthropic's, whose `input` is at least its cache
 * read, counted it (a real 0.6.x session of issue 18: input 20,049 of which 13,184 were cache
 * reads, its peak doubled when added again); an `input` below the cache read cannot contain it.
 */
function inputIncludesCacheRead(tokens: Json, providerId: unknown, modelId: unknown): boolean {
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const read = num(cache.read);
  if (read === 0 || 'total' in tokens) return false;
  const anthropic =
    /anthropic|bedrock/i.test(String(providerId ?? '')) || /claude/i.test(String(modelId ?? ''));
  return !anthropic && num(tokens.input) >= read;
}

/**
 * A `tokens` record as usage, its input the uncached part (`inputIncludesCacheRead` says when
 * OpenCode's `input` holds the cache read too).
 */
export function usageOf(
  tokens: unknown,
  providerId?: unknown,
  modelId?: unknown,
  ctx?: RecordContext,
): Usage | undefined {
  if (!isObject(tokens)) return undefined;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const read = readTokenCount(cache.read, 'tokens.cache.read', ctx);
  const input = readTokenCount(tokens.input, 'tokens.input', ctx);
  return {
    inputTokens: inputIncludesCacheRead(tokens, providerId, modelId) ? input - read : input,
    cacheCreationInputTokens: readTokenCount(cache.write, 'tokens.cache.write', ctx),
    cacheReadInputTokens: read,
    // Reasoning is output the model wrote (message-v2.ts keeps it apart).
    outputTokens:
      readTokenCount(tokens.output, 'tokens.output', ctx) +
      readTokenCount(tokens.reasoning, 'tokens.reasoning', ctx),
  };
}

export const contextOf = (u: Usage): TokenCount =>
  u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

/**
 * A time field in ms, or undefined when absent or implausible (`time.start: 0` is not 1970: OpenCode
 * writes 0 for a part it never timed; 1e20 is past what a Date holds).
 */
export const timeOf = (value: unknown, key: string): number | undefined =>
  isObject(value) && typeof value[key] === 'number' && isPlausibleTimeMs(value[key] as number)
    ? (value[key] as number)
    : undefined;

/** A time field that is there but implausible (0, before 2015, after 2099): said once, not used. */
export const isImplausibleTime = (value: unknown, key: string): boolean =>
  isObject(value) && typeof value[key] === 'number' && timeOf(value, key) === undefined;

/** A compaction's request, from its `compaction` part. */
export interface CompactionRequest {
  trigger: string;
  overflow: boolean;
  tail?: string;
}

/**
 * Fills `e` from a part that is not a tool's (`role`: its message's, or the part type's);
 * a `compaction` part returns the request it makes.
 */
export function fillPart(
  e: Entry,
  part: Json,
  role: 'user' | 'assistant',
  isSummary: boolean,
  max: number,
): CompactionRequest | undefined {
  const type = part.type as string;
  const text = (e: Entry, value: unknown): void => {
    const t = typeof value === 'string' ? value : '';
    e.blocks = [{ kind: 'text', text: preview(t, max), chars: t.length }];
  };
  e.type = 'part';
  e.subtype = type;
  e.messageId = typeof part.messageID === 'string' ? part.messageID : undefined;
  e.timestampMs = timeOf(part.time, 'start');
  switch (type) {
    case 'text': {
      e.kind = role;
      e.role = role;
      text(e, part.text);
      // Text OpenCode added (a file's contents, a command's output) or left out of requests.
      e.isMeta = part.synthetic === true || part.ignored === true;
      e.isCompactSummary = isSummary;
      return;
    }
    case 'reasoning': {
      e.kind = 'assistant';
      e.role = 'assistant';
      const t = typeof part.text === 'string' ? part.text : '';
      e.blocks = [{ kind: 'thinking', text: preview(t, max), chars: t.length }];
      return;
    }
    case 'file': {
      e.kind = role;
      e.role = role;
      const url = typeof part.url === 'string' ? part.url : '';
      const mime = typeof part.mime === 'string' ? part.mime : 'file';
      const block: Block = mime.startsWith('image/')
        ? { kind: 'image', mediaType: mime, base64Chars: url.startsWith('data:') ? url.length : 0 }
        : { kind: 'document', mediaType: mime, base64Chars: url.startsWith('data:') ? url.length : 0 };
      e.blocks = [block];
      e.summaryText = `file ${String(part.filename ?? '')}`.trim();
      return;
    }
    case 'compaction': {
      // The compaction's request: sent as the user text "What did we do so far?".
      e.kind = 'meta';
      const trigger = part.auto === true ? 'auto' : 'manual';
      const tail = typeof part.tail_start_id === 'string' ? part.tail_start_id : undefined;
      e.summaryText = `compaction requested (${trigger}${part.overflow === true ? ', context overflow' : ''})`;
      return { trigger, overflow: part.overflow === true, tail };
    }
    case 'step-start':
      e.kind = 'meta';
      e.summaryText = 'step start';
      return;
    case 'step-finish': {
      e.kind = 'meta';
      const u = usageOf(part.tokens);
      e.summaryText = u
        ? `step finish (${String(part.reason ?? '?')}): ${contextOf(u).toLocaleString('en-US')} tokens in context, ${u.outputTokens.toLocaleString('en-US')} out`
        : `step finish (${String(part.reason ?? '?')})`;
      return;
    }
    case 'subtask':
    case 'agent':
    case 'patch':
    case 'snapshot':
    case 'retry':
      e.kind = 'meta';
      e.summaryText =
        type === 'subtask'
          ? `subtask ${String(part.agent ?? '')}: ${preview(String(part.description ?? ''), 200)}`
          : type === 'patch' && Array.isArray(part.files)
            ? `patch: ${part.files.length} files`
            : type === 'retry'
              ? `retry ${String(part.attempt ?? '')}`
              : type;
      return;
    default:
      // An unknown part type: kept and counted.
      e.kind = 'unknown';
  }
  return undefined;
}

/**
 * A tool part's entries: its call, then (once it ran) its result. A pruned output is reported to
 * `onPruned` (the prune's time, the call id, the output's length).
 */
export function readToolPart(
  part: Json,
  ctx: RecordContext,
  next: () => Entry,
  onPruned: (atMs: number, toolUseId: string, chars: number) => void,
): void {
  const max = ctx.previewChars;
  const state = isObject(part.state) ? part.state : undefined;
  const id = typeof part.callID === 'string' ? part.callID : String(part.id);
  const name = typeof part.tool === 'string' ? part.tool : '(unnamed)';
  const input = state && isObject(state.input) ? state.input : {};
  const json = jsonText(input, ctx, 'state.input');
  const filePath = input.filePath ?? input.path ?? input.file_path;
  const use = next();
  use.type = 'part';
  use.subtype = 'tool';
  use.kind = 'assistant';
  use.role = 'assistant';
  use.messageId = typeof part.messageID === 'string' ? part.messageID : undefined;
  use.timestampMs = timeOf(state?.time, 'start');
  use.blocks = [
    {
      kind: 'tool-use',
      id,
      name,
      inputPreview: preview(json, max),
      inputChars: json.length,
      filePath: typeof filePath === 'string' ? filePath : undefined,
      command: typeof input.command === 'string' ? preview(input.command, max) : undefined,
    },
  ];
  if (!state) {
    ctx.issue('wrong-shape', 'warning', `At state: expected an object, got ${typeName(part.state)}`, 'state');
    return;
  }
  const status = state.status;
  if (status !== 'completed' && status !== 'error') {
    // Pending or running when the session was saved: sent as interrupted (message-v2.ts).
    use.summaryText = `tool ${String(status)}`;
    return;
  }
  const output = status === 'completed' ? state.output : state.error;
  const out = typeof output === 'string' ? output : '';
  const compacted = timeOf(state.time, 'compacted');
  const result = next();
  result.type = 'part';
  result.subtype = 'tool-result';
  result.kind = 'user';
  result.role = 'user';
  result.messageId = use.messageId;
  result.timestampMs = timeOf(state.time, 'end');
  result.blocks = [
    {
      kind: 'tool-result',
      toolUseId: id,
      // A pruned output is sent as the placeholder from then on; its size is what it was.
      text: compacted !== undefined ? OPENCODE_CLEARED : preview(out, max),
      chars: out.length,
      isError: status === 'error',
      images: Array.isArray(state.attachments) ? state.attachments.length : 0,
      persisted: false,
    },
  ];
  if (compacted !== undefined) {
    result.summaryText = `output pruned at ${describeTimeMs(compacted)} (${out.length} chars)`;
    onPruned(compacted, id, out.length);
  }
}
