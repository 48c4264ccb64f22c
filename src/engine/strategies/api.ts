// The public strategy API, version 1 (docs/custom-strategies.md): what a strategy written outside
// the engine implements, `import type { Strategy } from 'compactlab/strategy'`. Types only, and
// stable: a new field is optional, a removed one waits for version 2. The adapter
// (strategies/custom.ts) turns a `Strategy` into the engine's own `CompactionStrategy`, so the
// replay, Compare, the sweep, learn mode and the cost treat it as they treat a built-in. The
// engine's internals (the prepared replay, its typed arrays, the history) stay behind `StepView`.
//
// This file is also the declaration the page's editor loads (ui/custom/), verbatim: keep it free
// of imports and of anything but types.

/** A knob's value: a number (tokens, a percent, a count) or a switch. */
export type KnobValue = number | boolean;

/** The knobs a strategy's functions receive: every knob it declares, plus `contextWindow`. */
export type Knobs = Record<string, KnobValue>;

/** One knob: the panel shows it, `--knob key=value` sets it, Sweep walks a number. */
export interface KnobDef {
  /** Letters, digits and `_`, starting with a letter (`triggerTokens`). */
  key: string;
  label: string;
  kind: 'number' | 'boolean';
  default: KnobValue;
  unit?: 'tokens' | 'percent' | 'count';
  min?: number;
  max?: number;
  step?: number;
  /** Whole numbers only: input is rounded. */
  integer?: boolean;
  help?: string;
  /** Where the value comes from (a public source, or `ours (why)`). */
  source?: string;
}

/** A line the timeline draws at `tokens` (`trigger`: where it acts; `limit`: requests are refused). */
export interface Threshold {
  label: string;
  tokens: number;
  kind?: 'trigger' | 'warning' | 'limit';
}

/** A tool result (or an image, a document, a thinking block) the history holds. */
export interface ToolResult {
  /** Pass it back in a `clear` or `replace` action. */
  readonly id: number;
  /** The tool's name, or `image`, `document`, `thinking`. */
  readonly tool: string;
  /** Its tokens in the context. */
  readonly tokens: number;
  /** How many user prompts precede it: the newest prompt's results have `turn === view.turn`. */
  readonly turn: number;
  /** Its message's position in the context (compare with `StepView.boundary`, `keepRecentFrom`). */
  readonly position: number;
  /** Already cleared or replaced: it holds its placeholder. */
  readonly cleared: boolean;
}

/** What a strategy sees after each API call of the session. Valid only during `step`. */
export interface StepView {
  /** The call just answered: 0 for the first main-thread call. */
  readonly call: number;
  /** How many main-thread calls the session has. */
  readonly callCount: number;
  /** How many user prompts the history has had up to this call (its age in turns: `view.turn - result.turn`). */
  readonly turn: number;
  /** The simulated context sent with this call (what it holds after your earlier actions). */
  readonly contextTokens: number;
  /** The context plus the response's output: what a threshold usually compares. */
  readonly usageTokens: number;
  /** Tokens cleared or replaced results no longer take. */
  readonly clearedTokens: number;
  /** The user asked for a compaction after this call (the log's `/compact`): summarize, or not. */
  readonly manual: boolean;
  /** The first and one-past-last context positions the history holds now. */
  readonly liveFrom: number;
  readonly boundary: number;
  /** The tool results the history holds, oldest first. */
  results(): readonly ToolResult[];
  /** The tokens of positions [from, to) as the history holds them now. */
  tokensBetween(from: number, to: number): number;
  /** The earliest position that keeps at most `tokens` of the newest history whole (tool pairs kept together). */
  keepRecentFrom(tokens: number): number;
  /** The nearest position at or before `position` where the history can be cut without splitting a tool call from its result. */
  safeCut(position: number): number;
}

/** Replace the named results by a short placeholder (Claude Code's microcompact, the API's clear_tool_uses). */
export interface ClearAction {
  kind: 'clear';
  results: readonly number[];
  /** Tokens each placeholder keeps (default: `[Old tool result content cleared]`, 9). */
  placeholderTokens?: number;
  note?: string;
}

/** Replace the named results by a notice of your own size (Cline's duplicate file reads). */
export interface ReplaceAction {
  kind: 'replace';
  results: readonly number[];
  noticeTokens: number;
  note?: string;
}

/** Drop positions [from, to) of the history (Cline's truncation): both ends must be safe cuts. */
export interface TruncateAction {
  kind: 'truncate';
  from: number;
  to: number;
  /** Tokens of the notice left in their place (default 0). */
  noticeTokens?: number;
  note?: string;
}

/** Summarize the history: all of it, or what precedes `keepFrom` (kept verbatim). */
export interface SummarizeAction {
  kind: 'summarize';
  /** A safe cut (`keepRecentFrom`, `safeCut`): the messages from it on are kept as they are. */
  keepFrom?: number;
  /** The summary's size; default: the replay's size model for the summarized span. */
  summaryTokens?: number;
  /** The threshold this compaction crossed, for the event card (default: your first trigger line). */
  thresholdTokens?: number;
  note?: string;
}

export type Action = ClearAction | ReplaceAction | TruncateAction | SummarizeAction;

/** A compaction strategy. `export default` it from a `.ts` file (`satisfies Strategy`). */
export interface Strategy<K extends Knobs = Knobs, S = unknown> {
  /** Lowercase letters, digits and `-` (`clear-old-results`); not a built-in strategy's id. */
  id: string;
  label: string;
  description?: string;
  /** Its knobs; `contextWindow` (tokens) is added when not declared: requests above it are refused. */
  knobs?: readonly KnobDef[];
  /** Lines the timeline draws for these knobs. */
  thresholds?(knobs: K): readonly Threshold[];
  /** Fresh state for one replay (a counter, a set of ids); `step` receives it. */
  init?(knobs: K): S;
  /** After each API call: the actions to take now, in order (none: return nothing or []). */
  step(view: StepView, knobs: K, state: S): readonly Action[] | undefined;
}
