import type { Restoration } from '../../compact/restore';
import { getDialect } from '../../parse/dialects/registry';
import { isSafeCut } from '../../simulation/cuts';
import type { PreparedReplay } from '../../simulation/prepared';
import type { ThresholdLine } from '../../simulation/types';
import type { Entry, TokenCount } from '../../types';
import {
  type BoundaryMessage,
  estimateOwnMessageTokens,
  findCompactionBoundary,
  type SearchKnobs,
  toBoundaryMessage,
} from './scores';
import { createBoundaryScoringDetail } from './detail';
import { createRuleBasedSummary } from './summary';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import type { CompactionStrategy, KnobSpec, ReplayView, StepOutcome, StrategyRun } from '../types';
import { borrowedSummarySize } from '../summary-size';

// Boundary-scoring microcompaction (docs/sources.md#mdd below): once the messages'
// estimate reaches the threshold (or their count 500) and there are at least 10, the split is
// searched ±5 messages around half the messages, each candidate scored ("Boundary Scoring
// Algorithm"); the messages before the best split become a rule-based summary (no LLM call) and
// the ones after it stay verbatim. Messages are the live context entries; an earlier simulated
// summary counts as its messages and its size. Scores and helpers: boundary-scoring-scores.ts;
// the summary: boundary-scoring-summary.ts.

export interface BoundaryScoringKnobs extends SearchKnobs {
  thresholdTokens: TokenCount;
  maxMessages: number;
  /** `own`: the document's estimator over the messages; `context`: the replay's simulated context. */
  counter: string;
  preserveToolCalls: boolean;
  preserveToolResults: boolean;
  criticalTools: string[];
  systemCommands: string[];
  contextWindow: TokenCount;
}

const S_CONST = `docs/sources.md#mdd-constants`;
const S_WINDOW = `docs/sources.md#mdd-boundary-finding`;
const S_SCORE = `docs/sources.md#mdd-boundary-scoring`;
const S_BREAK = `docs/sources.md#mdd-natural-breaks`;
const S_CRIT = `docs/sources.md#mdd-critical-tools`;

export const DEFAULT_BOUNDARY_SCORING_KNOBS: BoundaryScoringKnobs = {
  thresholdTokens: 150_000,
  targetRatioPercent: 50,
  minMessages: 10,
  maxMessages: 500,
  searchRadiusMessages: 5,
  tailMessages: 5,
  counter: 'own',
  baseScore: 100,
  scoreAfterToolResult: 50,
  scoreAfterAssistant: 30,
  scoreInToolSequence: -100,
  scoreConversationBreak: 20,
  scoreNearError: -30,
  scoreTopicChange: 25,
  breakGapMinutes: 5,
  breakPhrases: ['new question', 'different topic', 'change of subject', 'moving on', "let's switch"],
  errorRadiusMessages: 2,
  topicOverlapPercent: 20,
  preserveToolCalls: true,
  preserveToolResults: true,
  criticalTools: ['Write', 'Edit', 'MultiEdit', 'Delete'],
  systemCommands: [
    'npm install',
    'pip install',
    'apt-get',
    'brew install',
    'git clone',
    'git commit',
    'docker',
    'systemctl',
  ],
  contextWindow: 200_000,
};

const G_TRIGGER = 'Trigger';
const G_SEARCH = 'Boundary search';
const G_SCORES = 'Scores (points)';
const G_SUMMARY = 'Rule-based summary';

const score = (key: string, label: string, def: number, flag: string, why: string): KnobSpec => ({
  key,
  label,
  kind: 'number',
  min: -1_000,
  max: 1_000,
  step: 5,
  integer: true,
  source: `${S_SCORE}: ${def > 0 ? '+' : ''}${def}${why ? ` (${why})` : ''}`,
  group: G_SCORES,
  cliFlag: flag,
});

/**
 * Every value below comes from a third-party design write-up (docs/sources.md#mdd) whose public
 * origin our notes do not record, and no agent ships it: each source says so, as our own choice.
 */
const DESIGN_ONLY =
  'ours (following a third-party design write-up whose public origin is not recorded; no agent ships it)';

const DESIGN_SPECS: readonly KnobSpec[] = [
  {
    key: 'thresholdTokens',
    label: 'Compact at',
    kind: 'number',
    unit: 'tokens',
    min: 1_000,
    max: 2_000_000,
    step: 1_000,
    source: `${S_CONST}: COMPACTION_THRESHOLD 150,000`,
    group: G_TRIGGER,
    cliFlag: 'threshold',
  },
  {
    key: 'counter',
    label: 'Count tokens with',
    kind: 'select',
    options: [
      { value: 'own', label: "the document's estimator (messages only)" },
      { value: 'context', label: "the replay's simulated context" },
    ],
    source: `docs/sources.md#mdd-token-estimation: estimateMessagesTokenCount`,
    group: G_TRIGGER,
    cliFlag: 'counter',
  },
  {
    key: 'maxMessages',
    label: 'Compact above (messages)',
    kind: 'number',
    unit: 'count',
    min: 1,
    max: 100_000,
    integer: true,
    source: `docs/sources.md#mdd-triggers: messages.length > 500`,
    group: G_TRIGGER,
    cliFlag: 'max-messages',
  },
  {
    key: 'minMessages',
    label: 'Minimum messages',
    kind: 'number',
    unit: 'count',
    min: 1,
    max: 10_000,
    integer: true,
    source: `${S_CONST}: MIN_MESSAGES_TO_COMPACT 10`,
    group: G_TRIGGER,
    cliFlag: 'min-messages',
  },
  contextWindowSpec(
    `ours (not in docs/sources.md#mdd: the window inferred from the log, else 200,000; requests over it fail)`,
    G_TRIGGER,
  ),
  {
    key: 'targetRatioPercent',
    label: 'Target split (% of messages)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 99,
    step: 1,
    source: `${S_CONST}: TARGET_SIZE_RATIO 0.5`,
    group: G_SEARCH,
    cliFlag: 'target-ratio',
  },
  {
    key: 'searchRadiusMessages',
    label: 'Search window (± messages)',
    kind: 'number',
    unit: 'count',
    min: 0,
    max: 1_000,
    integer: true,
    source: `${S_WINDOW}: targetIndex ± 5`,
    group: G_SEARCH,
    cliFlag: 'search-window',
  },
  {
    key: 'tailMessages',
    label: 'Messages always kept',
    kind: 'number',
    unit: 'count',
    min: 0,
    max: 1_000,
    integer: true,
    source: `${S_WINDOW}: searchEnd ≤ messages.length − 5`,
    group: G_SEARCH,
    cliFlag: 'keep-tail',
  },
  score('baseScore', 'Base score', 100, 'score-base', ''),
  score('scoreAfterToolResult', 'After a tool result', 50, 'score-after-tool-result', ''),
  score('scoreAfterAssistant', 'After an assistant message', 30, 'score-after-assistant', ''),
  score(
    'scoreInToolSequence',
    'Inside a tool sequence',
    -100,
    'score-tool-sequence',
    '"Tool Sequence Detection"',
  ),
  score('scoreConversationBreak', 'At a natural break', 20, 'score-break', '"Natural Break Detection"'),
  score(
    'scoreNearError',
    'Near an error',
    -30,
    'score-near-error',
    'hasNearbyErrors is undefined there: ours, an error within the radius below',
  ),
  score(
    'scoreTopicChange',
    'At a topic change',
    25,
    'score-topic-change',
    'detectsTopicChange is undefined there: ours, a typed message sharing few words with the previous one',
  ),
  {
    key: 'breakGapMinutes',
    label: 'Break after a pause of (minutes)',
    kind: 'number',
    min: 0,
    max: 10_000,
    step: 1,
    source: `${S_BREAK}: gap > 300,000 ms`,
    group: G_SCORES,
    cliFlag: 'break-gap-minutes',
  },
  {
    key: 'breakPhrases',
    label: 'Break phrases',
    kind: 'list',
    source: `${S_BREAK}: breakPhrases`,
    group: G_SCORES,
    cliFlag: 'break-phrases',
  },
  {
    key: 'errorRadiusMessages',
    label: 'Near an error: within (messages)',
    kind: 'number',
    unit: 'count',
    min: 0,
    max: 100,
    integer: true,
    source: `ours (${S_SCORE} calls hasNearbyErrors without defining it): 2`,
    group: G_SCORES,
    cliFlag: 'error-radius',
  },
  {
    key: 'topicOverlapPercent',
    label: 'Topic change: shared words under',
    kind: 'number',
    unit: 'percent',
    min: 0,
    max: 100,
    step: 5,
    source: `ours (${S_SCORE} calls detectsTopicChange without defining it): 20%`,
    group: G_SCORES,
    cliFlag: 'topic-overlap',
  },
  {
    key: 'preserveToolCalls',
    label: 'Tool usage summary',
    kind: 'boolean',
    source: `docs/sources.md#mdd-constants: preserveToolCalls defaults to true`,
    group: G_SUMMARY,
    cliFlag: 'tool-summary',
  },
  {
    key: 'preserveToolResults',
    label: 'Preserve critical tool results',
    kind: 'boolean',
    source: `docs/sources.md#mdd-critical-tools: critical results kept in full`,
    group: G_SUMMARY,
    cliFlag: 'preserve-results',
  },
  {
    key: 'criticalTools',
    label: 'Critical tools (file changes)',
    kind: 'list',
    source: `${S_CRIT}: Write, Edit, MultiEdit, Delete`,
    group: G_SUMMARY,
    cliFlag: 'critical-tools',
  },
  {
    key: 'systemCommands',
    label: 'System-change commands',
    kind: 'list',
    source: `${S_CRIT}: isSystemChange`,
    group: G_SUMMARY,
    cliFlag: 'system-commands',
  },
];

const SPECS: readonly KnobSpec[] = DESIGN_SPECS.map((spec) =>
  spec.source.includes('ours (') ? spec : { ...spec, source: `${spec.source}; ${DESIGN_ONLY}` },
);

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

/** Per prepared session: each context position's estimate by the document's own estimator, summed. */
const ownPrefixCache = new WeakMap<PreparedReplay, Float64Array>();
function getOwnPrefix(prepared: PreparedReplay): Float64Array {
  let prefix = ownPrefixCache.get(prepared);
  if (!prefix) {
    const { ctxEntry, session } = prepared;
    prefix = new Float64Array(ctxEntry.length + 1);
    for (let p = 0; p < ctxEntry.length; p++)
      prefix[p + 1] = prefix[p]! + estimateOwnMessageTokens(session.entries[ctxEntry[p]!]!);
    ownPrefixCache.set(prepared, prefix);
  }
  return prefix;
}

/** Per prepared session: the context positions that are a logged compaction's artifacts, sorted. */
const artifactCache = new WeakMap<PreparedReplay, Int32Array>();
function getArtifactPositions(prepared: PreparedReplay, from: number, to: number): Int32Array {
  let list = artifactCache.get(prepared);
  if (!list) {
    const out: number[] = [];
    prepared.artifactOf.forEach((a, p) => {
      if (a !== 0) out.push(p);
    });
    list = Int32Array.from(out);
    artifactCache.set(prepared, list);
  }
  let lo = 0;
  while (lo < list.length && list[lo]! < from) lo++;
  let hi = lo;
  while (hi < list.length && list[hi]! < to) hi++;
  return list.subarray(lo, hi);
}

class BoundaryScoringRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly own: Float64Array;
  private readonly shellTools: readonly string[];
  /** The last simulated summary: where its kept part starts, its messages and its own estimate. */
  private summaryFrom = -1;
  private summaryMessages = 0;
  private summaryOwnTokens = 0;

  constructor(
    private readonly knobs: BoundaryScoringKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    this.own = getOwnPrefix(prepared);
    this.shellTools = getDialect(prepared.session.format)?.shellTools ?? ['Bash'];
  }

  step(view: ReplayView): StepOutcome | undefined {
    const { knobs, prepared } = this;
    const from = view.liveFromPos;
    const carried = from === this.summaryFrom;
    // The history's messages: the live positions less a logged compaction's artifacts it does not
    // hold (few: walked apart instead of listing every position at every call).
    let unheld = 0;
    let unheldOwn = 0;
    for (const p of getArtifactPositions(prepared, from, view.boundaryPos))
      if (!view.holds(p)) {
        unheld++;
        unheldOwn += this.own[p + 1]! - this.own[p]!;
      }
    const live = view.boundaryPos - from - unheld;
    const length = live + (carried ? this.summaryMessages : 0);
    const counted =
      knobs.counter === 'context'
        ? view.usageTokens
        : this.own[view.boundaryPos]! - this.own[from]! - unheldOwn + (carried ? this.summaryOwnTokens : 0);
    const manual = view.manual !== undefined;
    // "Compaction Triggers": (over the tokens or over 500 messages) and at least 10 messages.
    if (!manual && counted < knobs.thresholdTokens && length <= knobs.maxMessages) return undefined;
    if (length < knobs.minMessages) return undefined;

    // The summary's messages lead the list: a split among them is a split before the first live one.
    const head = carried ? this.summaryMessages : 0;
    const { ctxEntry, session } = prepared;
    const held: number[] = [];
    for (let p = from; p < view.boundaryPos; p++) if (view.holds(p)) held.push(p);
    const posAt = (i: number) => held[Math.max(0, i - head)] ?? view.boundaryPos;
    const cache = new Map<number, BoundaryMessage>();
    const at = (i: number): BoundaryMessage | undefined => {
      if (i < 0 || i >= length) return undefined;
      if (i < head) return { ...SUMMARY_MESSAGE };
      let m = cache.get(i);
      if (!m) {
        m = toBoundaryMessage(session.entries[ctxEntry[posAt(i)]!]!);
        cache.set(i, m);
      }
      return m;
    };
    const entryAt = (i: number) => ctxEntry[posAt(i)] ?? -1;
    const { best, candidates } = findCompactionBoundary(at, length, knobs, entryAt, (i) =>
      isSafeCut(prepared, posAt(i), view.boundaryPos),
    );
    // A split among the earlier summary's own messages, or before the first live one, summarizes nothing new.
    if (!best || best.messageIndex <= head) return undefined;
    const keepFromPos = posAt(best.messageIndex);
    const spanEntries: Entry[] = [];
    let spanOwn = carried ? this.summaryOwnTokens : 0;
    for (const p of held) {
      if (p >= keepFromPos) break;
      spanEntries.push(session.entries[ctxEntry[p]!]!);
      spanOwn += this.own[p + 1]! - this.own[p]!;
    }
    const summary = createRuleBasedSummary(spanEntries, {
      messageCount: best.messageIndex,
      timestampMs: session.entries[best.entryIndex]?.timestampMs,
      originalTokens: spanOwn,
      targetRatioPercent: knobs.targetRatioPercent,
      preserveToolCalls: knobs.preserveToolCalls,
      preserveToolResults: knobs.preserveToolResults,
      criticalTools: knobs.criticalTools,
      systemCommands: knobs.systemCommands,
      shellTools: this.shellTools,
    });
    this.summaryFrom = keepFromPos;
    this.summaryMessages = summary.messages.length;
    this.summaryOwnTokens = summary.tokens;
    const factors = best.factors
      .filter((f) => f.id !== 'base')
      .map((f) => `${f.id} ${f.points > 0 ? '+' : ''}${f.points}`);
    const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
    const why = manual
      ? `${length} messages`
      : counted >= knobs.thresholdTokens
        ? `${fmt(counted)} tokens (${knobs.counter === 'own' ? 'its own estimate' : 'context + output'}) ≥ ${fmt(knobs.thresholdTokens)}, ${length} messages`
        : `${length} messages > ${knobs.maxMessages} (${fmt(counted)} tokens by ${knobs.counter === 'own' ? 'its own estimate' : 'the context'})`;
    return {
      actions: [
        {
          kind: 'summarize',
          mechanism: 'partial',
          trigger: manual ? 'manual' : 'auto',
          // The replay's count: the event's "before" and its provenance are the simulated context.
          checkTokens: view.checkTokens,
          thresholdTokens: knobs.thresholdTokens,
          restoration: NO_RESTORATION,
          keepFromPos,
          keepDirection: 'up-to',
          summaryTokens: summary.tokens,
          summarySource: 'model',
          // The summary messages carry their own headings: no continuation text around them.
          summaryOverheadTokens: 0,
          continuation: { format: 'v2.1.68', auto: !manual },
          requestVariant: 'partial',
          customInstructions: view.manual?.customInstructions,
          detail: createBoundaryScoringDetail(candidates),
          // The summary is rule-based (boundary-scoring-summary.ts): no LLM request.
          llmCalls: 0,
          note: `${why}; split at message ${best.messageIndex} of ${length} (score ${best.score}${factors.length ? `: ${factors.join(', ')}` : ''}); rule-based summary in ${summary.messages.length} messages, ${summary.preserved.length} tool results preserved in it`,
        },
      ],
    };
  }
}

/** An earlier summary's message as the scores see it (a system message, MD "Summary Generation"). */
const SUMMARY_MESSAGE: BoundaryMessage = {
  type: 'system',
  firstIsToolResult: false,
  hasToolResult: false,
  hasToolUse: false,
  hasError: false,
  text: '',
  isUserText: false,
};

export const BOUNDARY_SCORING_STRATEGY: CompactionStrategy<BoundaryScoringKnobs> = {
  id: 'boundary-scoring',
  label: 'Boundary-scoring microcompaction',
  description:
    'At 150,000 tokens (by its own estimator) and 10+ messages, scores splits ±5 messages around half the messages and replaces the part before the best with a rule-based summary (statistics, tool usage, narrative, critical results).',
  knobSpecs: SPECS,
  defaultKnobs: DEFAULT_BOUNDARY_SCORING_KNOBS,
  getSessionKnobs: (info) => {
    const window = info.window?.windowTokens;
    const knobs = { ...DEFAULT_BOUNDARY_SCORING_KNOBS };
    if (window !== undefined && window > 0) knobs.contextWindow = window;
    return {
      knobs,
      notes: [
        `A model of a published boundary-scoring design (docs/sources.md#mdd), not an agent's release: no log is expected to match its compactions.`,
        `Window ${knobs.contextWindow.toLocaleString('en-US')} tokens${window ? ' (inferred from the log)' : ''}.`,
      ],
    };
  },
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULT_BOUNDARY_SCORING_KNOBS),
  thresholds: (knobs): ThresholdLine[] => [
    {
      id: 'compact',
      // The own estimate counts messages only: the line is where that count, not the chart's, fires.
      label: knobs.counter === 'own' ? 'Boundary scoring (its own estimate)' : 'Boundary scoring',
      tokens: knobs.thresholdTokens,
      kind: 'trigger',
    },
    { id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' },
  ],
  createRun: (knobs, prepared) => new BoundaryScoringRun(knobs, prepared),
  summarySize: () => borrowedSummarySize('a design, not an agent: no logs of its own'),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow'],
};
