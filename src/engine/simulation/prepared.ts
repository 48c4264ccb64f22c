import type { FileAccess } from '../compact/restore';
import { estimateTextTokens } from '../tokens/estimate';
import { lowerBound } from './search';
import type { Compaction, Session, TokenCount } from '../types';

// The replay's shared model: what `prepareReplay` computes once per session and both the replay
// loop and the strategies read. It lives apart from `replay/` so that strategies depend on the
// model, not on the loop that runs them (tests/structure/layers.test.ts checks the direction).

/** Tokens of the placeholder a cleared result keeps (`"[Old tool result content cleared]"`, docs/sources.md#fmt-microcompact-boundary). */
export const PLACEHOLDER_TOKENS: TokenCount = estimateTextTokens('[Old tool result content cleared]'.length);

/** How an entry's token figure was obtained. */
export const TOKEN_SOURCE = {
  /** The only entry of its group: the recorded usage delta itself. */
  exact: 0,
  /** The group's recorded delta, split over its entries by estimate. */
  split: 1,
  /** No usage covers it: Claude Code's estimate. */
  estimated: 2,
  /** The recorded delta was negative (cache or thinking accounting): counted as 0. */
  clamped: 3,
} as const;
export type TokenSourceId = (typeof TOKEN_SOURCE)[keyof typeof TOKEN_SOURCE];
export const TOKEN_SOURCE_LABELS = [
  'recorded usage delta',
  'usage delta split by estimate',
  'estimate',
  'negative delta, counted as 0',
] as const;

/** Kind of clearable item (index into `clearables.tool` when ≥ 0). */
export const CLEARABLE_IMAGE = -1;
export const CLEARABLE_DOCUMENT = -2;
/**
 * A thinking block of an assistant message (`thinking` or `redacted_thinking`): what the API's
 * `clear_thinking_20251015` edit removes (docs/sources.md#api-clear-thinking). Strategies that clear tool
 * results or images never pick it.
 */
export const CLEARABLE_THINKING = -3;

export interface RealCompactionInfo {
  compactionIndex: number;
  kind: Compaction['kind'];
  trigger: string;
  /** Main-call position (k) the boundary follows; −1 when it precedes every call. */
  afterCall: number;
  entryIndex: number;
  /** Context position of the first context entry after the boundary. */
  boundaryPos: number;
  /** Context positions of the summary and re-attached entries (compact only). */
  artifactPositions: number[];
  /** What the compaction put in the context: its logged artifacts' tokens plus `unloggedTokens`. */
  artifactTokens: TokenCount;
  /**
   * What the first call after the event holds beyond the log's own messages (a compaction's
   * replacement history a Codex rollout does not write, a truncation notice, the difference
   * between the tokens a truncation really dropped and its range's attributed ones): the recorded
   * usage less the log's history priced per message. Part of the log's history from the event on
   * (replay-state.ts); a simulated history that did not make the same event never holds it.
   */
  unloggedTokens: TokenCount;
  /**
   * The log's own usage less its history priced per message at the call the event follows (usage
   * that fell with no record saying why makes it negative). A history that does not make the
   * event still holds those messages: it carries this from the event on (replay-state.ts), where
   * the log's restarts at zero.
   */
  driftTokens: TokenCount;
  /** Attributed tokens of the summary message (compact only). */
  summaryTokens?: TokenCount;
  summaryEntryIndex?: number;
  preTokens?: TokenCount;
  /** Truncate: the live positions [from, to) the log dropped (Cline's deleted range, simulation/message-pairs.ts). */
  droppedRange?: [number, number];
  /** Microcompact: indices into `clearables`. */
  cleared: number[];
  /** Microcompact: tokens the clearing removed from the recorded context (attributed − placeholder). */
  savedTokens: TokenCount;
  logicalParentUuid?: string;
}

export interface Clearables {
  /** Context position of the entry holding the result / image. */
  pos: Int32Array;
  /** Claude Code's estimate (`iI2`: chars / 4 + 2,000 per image; `eV8` for a bare image). */
  estimate: Float64Array;
  /** Attributed share of the entry's tokens. */
  tokens: Float64Array;
  /** Index into `toolNames`, or CLEARABLE_IMAGE / CLEARABLE_DOCUMENT / CLEARABLE_THINKING. */
  tool: Int32Array;
  /**
   * The assistant turn the item belongs to: how many prompts (user messages that are not tool
   * results) precede it. A prompt's whole tool loop is one turn, its thinking blocks share it.
   */
  turn: Int32Array;
  /** Context position of the tool_use (−1 for images or unmatched results). */
  usePos: Int32Array;
  /**
   * tool_use id; `<entry uuid|#index>:image:<n>` (or `:document:`) for media in user messages,
   * `<entry uuid|#index>:thinking:<n>` for thinking blocks.
   */
  ids: string[];
  indexById: Map<string, number>;
  /**
   * Items in call order: by the position of their tool_use (an image or thinking block by its own), ties by result.
   * Parallel calls' results can arrive out of order; microcompact counts back in call order.
   */
  order: Int32Array;
  /** Key the order sorts on: tool_use position, or the item's own for images / orphan results. */
  orderKey: Int32Array;
}

export interface PreparedReplay {
  session: Session;
  /** Main-thread, non-synthetic API calls, in order: index into `session.apiCalls`. */
  calls: Int32Array;
  /** Recorded context of each call: input + cache creation + cache read. */
  recorded: Float64Array;
  output: Float64Array;
  /** Context position of each call's first line; `callPos[n]` = number of context entries. */
  callPos: Int32Array;
  /**
   * Claude Code 2.1.x's estimate of what follows a response's first line up to the next call
   * (its later lines, tool results, user messages; real compaction artifacts excluded).
   */
  pendingEstimate: Float64Array;
  /** Context position → entry index. */
  ctxEntry: Int32Array;
  /** Entry index → context position, −1 for entries that are not context. */
  posOfEntry: Int32Array;
  tokens: Float64Array;
  estimate: Float64Array;
  tokenSource: Uint8Array;
  /** 1 + index into `real` for real compaction artifacts (summary, re-attachments), else 0. */
  artifactOf: Int32Array;
  /** Prefix sums of `tokens` (length n+1): all entries / without artifacts. */
  prefixAll: Float64Array;
  prefixNon: Float64Array;
  /**
   * Prefix sums without artifacts, by `TOKEN_SOURCE` (length n+1 each): tokens for exact, split
   * and estimated; for clamped, the number of entries (their tokens are 0).
   */
  prefixBySource: Float64Array[];
  /**
   * Where the recorded usage fell between two calls with no record saying why (Codex's and Gemini
   * CLI's earlier reasoning and search results no longer sent, a call without usage estimated
   * high): the group whose call recorded the fall has its entries at 0 (`TOKEN_SOURCE.clamped`)
   * and the fall is placed at the group's first position, as content dropped from before it
   * (`getUsageFallTokens`). Without it, a replay that had summarized that content still lost the
   * fall: the call after the Anthropic SDK's simulated compaction on a real Codex rollout read
   * −6,125 tokens.
   */
  usageFalls: UsageFalls;
  /** System prompt + tools, estimated as the first call's context minus its entries. */
  baseTokens: TokenCount;
  clearables: Clearables;
  toolNames: string[];
  real: RealCompactionInfo[];
  fileAccesses: { pos: Int32Array; list: FileAccess[] };
  todos: { pos: Int32Array; entryIndex: Int32Array; tokens: Float64Array };
  plans: { pos: Int32Array; entryIndex: Int32Array; tokens: Float64Array; paths: (string | undefined)[] };
  /** Skill bodies (the meta message after each skill invocation's result) and the skill's name. */
  skills: { pos: Int32Array; entryIndex: Int32Array; tokens: Float64Array; names: string[] };
  /** Plan mode entered (1) or left (0) at these context positions. */
  planMode: { pos: Int32Array; on: Uint8Array };
  /** Tokens of the SessionStart hooks' output as the log shows it (before its first call). */
  sessionStartTokens: TokenCount;
  /** The main file's name, for the continuation message's transcript hint. */
  transcriptPath: string;
  prepareMs: number;
}

/** The falls of the recorded usage (`PreparedReplay.usageFalls`), by context position. */
export interface UsageFalls {
  /** Positions of the groups whose call's usage fell, ascending. */
  pos: Int32Array;
  /** Tokens it fell by, at each. */
  tokens: Float64Array;
  /** Prefix sums of `tokens` (length `pos.length + 1`). */
  prefix: Float64Array;
  /** Largest of `tokens[i…]` (length `pos.length + 1`, 0 at the end). */
  suffixMax: Float64Array;
}

/**
 * The falls of the recorded usage a history that holds the context positions [from, pos) has
 * undergone: those of the groups starting after `from`, each no larger than what the history
 * holds before its group (a fall drops content from before it; a history that starts just
 * before it held little of that content). 0 when no fall lies in the range.
 */
export function getUsageFallTokens(prepared: PreparedReplay, from: number, pos: number): TokenCount {
  const falls = prepared.usageFalls;
  if (falls.pos.length === 0) return 0;
  const first = lowerBound(falls.pos, from + 1);
  const end = lowerBound(falls.pos, pos);
  let sum = 0;
  for (let i = first; i < end; i++) {
    const held = prepared.prefixAll[falls.pos[i]!]! - prepared.prefixAll[from]!;
    // Past here every fall is within what the history holds before it: the rest is a prefix sum.
    if (held >= falls.suffixMax[i]!) return sum + falls.prefix[end]! - falls.prefix[i]!;
    sum += Math.min(falls.tokens[i]!, Math.max(0, held));
  }
  return sum;
}
