import type { TokenCount } from '../../types';
import type { SearchKnobs } from './scores';
import { contextWindowSpec } from '../knobs';
import type { KnobSpec } from '../types';

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

export const SPECS: readonly KnobSpec[] = DESIGN_SPECS.map((spec) =>
  spec.source.includes('ours (') ? spec : { ...spec, source: `${spec.source}; ${DESIGN_ONLY}` },
);
