import type { KnobSpec, KnobValue } from '../strategies/types';
import type { TokenCount } from '../types';

// Learn mode's step model: one compaction of a transcript told step by step. Plain data (it
// crosses the worker boundary); every figure in it comes from the replay (computeReplay), the
// compact/ request builder or the built-in summarizer (learn/walk.ts), never from the page.

/** What kind of compaction a strategy's walk shows: the richest event kind its replay produced. */
export type LearnFamily = 'summarize' | 'truncate' | 'clear' | 'none';

export type LearnStepKind =
  | 'overview'
  | 'check'
  | 'clear'
  | 'replace'
  | 'truncate'
  | 'span'
  | 'filter'
  | 'prompt'
  | 'summary'
  | 'cleanup'
  | 'boundary'
  | 'restore'
  | 'continuation'
  | 'after';

/** One figure of a step: its value in tokens (or a count), and how it was obtained. */
export interface LearnFigure {
  label: string;
  value: number;
  unit: 'tokens' | 'count';
  how?: string;
  /** Marks the figure the step is about (the check count, the savings, the context after). */
  strong?: boolean;
}

/**
 * A constant acting at a step. With `spec` it is one of the strategy's knobs (the page offers a
 * control that re-runs the walk); without, a value fixed in the agent's code.
 */
export interface LearnConstant {
  key: string;
  label: string;
  value: KnobValue;
  /** Where the value comes from: a docs/sources.md anchor (the agent's source restated) or a measurement. */
  source: string;
  spec?: KnobSpec;
  /** For a fixed constant: which knob, if any, moves it. */
  note?: string;
}

/** The trigger count call by call up to (and just past) the step's call. */
export interface LearnBar {
  /** Index into `session.apiCalls` of each point. */
  apiCalls: number[];
  /** The count the trigger compared after each call (`ReplayResult.checkTokens`). */
  checkTokens: number[];
  /** The log's own context at each call (`ReplayResult.recordedTokens`): the real line beside the replay's. */
  recordedTokens: number[];
  thresholdTokens: TokenCount;
  thresholdLabel: string;
  /** The window or blocking limit: the bar's full scale. */
  limitTokens: TokenCount;
  limitLabel: string;
  /** Position in the arrays of the call the step is about. */
  focus: number;
  /** The points after the focus come after the compaction (else: the focus is only the peak). */
  afterEvent: boolean;
}

/** A list of what a step acts on (cleared results, dropped records, restored files). */
export interface LearnList {
  title: string;
  rows: string[];
  /** Rows left out to keep the step readable. */
  more: number;
}

/** A text the step shows: a prompt, a summary, a record. Transcript text: shown as plain text. */
export interface LearnText {
  title: string;
  body: string;
  /** Characters left out of `body`. */
  moreChars: number;
}

export interface LearnStep {
  /** Stable within a strategy's walk: `check`, `clear`, `span`, … */
  id: string;
  kind: LearnStepKind;
  title: string;
  /** What happens here, in two or three sentences. */
  lead: string;
  figures: LearnFigure[];
  constants: LearnConstant[];
  bar?: LearnBar;
  lists: LearnList[];
  texts: LearnText[];
  /** Where the rule comes from (reference section). */
  source?: string;
}

/** A compaction of the replay a walk can follow (the learn view's picker). */
export interface LearnCompaction {
  /** Index into the replay's events: `LearnWalkInput.eventIndex`, the URL's `event`. */
  eventIndex: number;
  family: Exclude<LearnFamily, 'none'>;
  kind: string;
  afterApiCall: number;
  trigger: string;
  preTokens: TokenCount;
  postTokens: TokenCount;
}

export interface LearnWalk {
  strategyId: string;
  strategyLabel: string;
  family: LearnFamily;
  /** Index into the replay's events of the compaction the walk follows. */
  focusEventIndex?: number;
  /** Every compaction of the replay the walk can follow, in order. */
  compactions: LearnCompaction[];
  /** The API call (index into `session.apiCalls`) it follows. */
  afterApiCall?: number;
  steps: LearnStep[];
  /** The effective knobs the walk ran with (the log's own, under the overrides). */
  knobs: Record<string, KnobValue>;
  /** The log's own knobs, and why. */
  sessionNotes: string[];
  computeMs: number;
}
