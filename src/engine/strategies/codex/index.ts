import type { Restoration } from '../../compact/restore';
import { lowerBound } from '../../simulation/search';
import type { PreparedReplay } from '../../simulation/prepared';
import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import type {
  CompactionStrategy,
  KnobSpec,
  ReplayView,
  StepOutcome,
  StrategyAction,
  StrategyRun,
} from '../types';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import { CODEX } from './prompt';

// OpenAI Codex CLI's local compaction (docs/sources.md#codex row, §2.2,
// §5.2; sources there: openai/codex `codex-rs/core/src/compact.rs`,
// `codex-rs/core/templates/compact/{prompt.md,summary_prefix.md}`,
// `codex-rs/protocol/src/openai_models.rs`):
//   - after each response, the last request's `total_tokens` (its input plus its output) is
//     compared with `model_auto_compact_token_limit`, by default 90% of the model's context window;
//   - at or above it, the whole history is summarized and replaced by: the initial context (system
//     prompt, tools: the replay's base), the most recent *user* messages up to 20,000 tokens
//     (`COMPACT_USER_MESSAGE_MAX_TOKENS`; the message that crosses the budget is truncated to what
//     is left), and the summary as a user message prefixed with summary_prefix.md.
// No tool results survive, no files are re-attached. The window is the one rollouts log as
// `model_context_window`, which is already the effective window (272,000 × 95% = 258,400, the
// `effective_context_window_percent` of §2.1). docs/replay-accuracy.md "Codex CLI" has the
// corpus figure and what Codex counts.

export interface CodexKnobs {
  /** `model_context_window` (effective). Requests over it fail. */
  contextWindow: TokenCount;
  /** Auto-compact limit as a percent of the window, default 90. */
  thresholdPercent: number;
  /** `COMPACT_USER_MESSAGE_MAX_TOKENS`, default 20,000. */
  userMessageBudgetTokens: TokenCount;
  /** Off: no automatic compaction (a `/compact` still works). */
  autoCompactEnabled: boolean;
}

/** Codex's 272k models at `effective_context_window_percent` 95 (docs/sources.md#codex): what rollouts log. */
export const CODEX_DEFAULT_CONTEXT_WINDOW: TokenCount = 258_400;
/** summary_prefix.md is 400 characters; Codex prices text at 4 bytes per token (truncate.rs). */
export const CODEX_SUMMARY_PREFIX_TOKENS: TokenCount = 100;

const DEFAULTS: CodexKnobs = {
  contextWindow: CODEX_DEFAULT_CONTEXT_WINDOW,
  thresholdPercent: 90,
  userMessageBudgetTokens: 20_000,
  autoCompactEnabled: true,
};

const SOURCE = 'docs/sources.md#codex (openai/codex compact.rs, openai_models.rs)';

const SPECS: readonly KnobSpec[] = [
  contextWindowSpec(`${SOURCE}: the log's model_context_window, else 272,000 × 95%`, 'Codex'),
  {
    key: 'thresholdPercent',
    label: 'Auto-compact at (% of window)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${SOURCE}: default 90%`,
    group: 'Codex',
    cliFlag: 'pct',
  },
  {
    key: 'userMessageBudgetTokens',
    label: 'Kept user messages',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 200_000,
    step: 1_000,
    source: `${SOURCE}: COMPACT_USER_MESSAGE_MAX_TOKENS 20,000`,
    group: 'Codex',
  },
  {
    key: 'autoCompactEnabled',
    label: 'Auto-compact',
    kind: 'boolean',
    source: SOURCE,
    group: 'Codex',
    cliFlag: 'auto-compact',
  },
];

/** `auto_compact_token_limit`: `(context_window * 9) / 10` in integers at the default. */
export function getCodexThreshold(knobs: CodexKnobs): TokenCount {
  return Math.floor((knobs.contextWindow * knobs.thresholdPercent) / 100);
}

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

interface KeptMessage {
  entryIndex: number;
  tokens: TokenCount;
}

class CodexRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly threshold: TokenCount;
  /** Context positions of messages the person typed (no tool output, no injected context). */
  private readonly userPos: Int32Array;
  /** Boundaries of the log's own compactions: after adopting one, its history is the log's. */
  private readonly realBoundaries: Set<number>;
  /** User messages the last simulated compaction kept, and the position it resumed from. */
  private kept: KeptMessage[] = [];
  private keptFromPos = -1;

  constructor(
    private readonly knobs: CodexKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    this.threshold = getCodexThreshold(knobs);
    const { session, ctxEntry, artifactOf } = prepared;
    const list: number[] = [];
    for (let p = 0; p < ctxEntry.length; p++) {
      const e = session.entries[ctxEntry[p]!];
      if (
        e &&
        artifactOf[p] === 0 &&
        e.kind === 'user' &&
        e.role === 'user' &&
        !e.isMeta &&
        !e.isCompactSummary &&
        e.blocks.length > 0 &&
        e.blocks.every((b) => b.kind === 'text' || b.kind === 'image')
      )
        list.push(p);
    }
    this.userPos = Int32Array.from(list);
    this.realBoundaries = new Set(prepared.real.map((r) => r.boundaryPos));
  }

  step(view: ReplayView): StepOutcome | undefined {
    if (view.manual) return { actions: [this.compaction(view, 'manual')] };
    if (!this.knobs.autoCompactEnabled) return undefined;
    // `total_tokens` of the last response: its input and its output (docs/replay-accuracy.md).
    if (view.usageTokens < this.threshold) return undefined;
    return { actions: [this.compaction(view, 'auto')] };
  }

  /** compact.rs `build_compacted_history`: newest user messages first, until the budget is spent. */
  private selectUserMessages(view: ReplayView): KeptMessage[] {
    const { ctxEntry, tokens } = this.prepared;
    const carried = view.liveFromPos === this.keptFromPos && !this.realBoundaries.has(view.liveFromPos);
    const candidates: KeptMessage[] = carried ? this.kept.slice() : [];
    const from = lowerBound(this.userPos, view.liveFromPos);
    const to = lowerBound(this.userPos, view.boundaryPos);
    for (let r = from; r < to; r++) {
      const p = this.userPos[r]!;
      candidates.push({ entryIndex: ctxEntry[p]!, tokens: tokens[p]! });
    }
    let remaining = this.knobs.userMessageBudgetTokens;
    const selected: KeptMessage[] = [];
    for (let r = candidates.length - 1; r >= 0 && remaining > 0; r--) {
      const m = candidates[r]!;
      const t = Math.min(m.tokens, remaining);
      selected.push({ entryIndex: m.entryIndex, tokens: t });
      remaining -= t;
    }
    return selected.reverse();
  }

  private compaction(view: ReplayView, trigger: 'auto' | 'manual'): StrategyAction {
    const kept = this.selectUserMessages(view);
    let keptTokens = 0;
    for (const m of kept) keptTokens += m.tokens;
    this.kept = kept;
    this.keptFromPos = view.boundaryPos;
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger,
      checkTokens: view.checkTokens,
      thresholdTokens: this.threshold,
      restoration: NO_RESTORATION,
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      summaryOverheadTokens: CODEX_SUMMARY_PREFIX_TOKENS,
      keptMessages: { entryIndices: kept.map((m) => m.entryIndex), tokens: keptTokens },
      requestVariant: 'full',
      promptPresetId: CODEX.id,
      customInstructions: view.manual?.customInstructions,
      note: `${kept.length} user messages kept (${keptTokens.toLocaleString('en-US')} of ${this.knobs.userMessageBudgetTokens.toLocaleString('en-US')} tokens) with the prefixed summary`,
    };
  }
}

export const CODEX_STRATEGY: CompactionStrategy<CodexKnobs> = {
  id: 'codex',
  label: 'Codex CLI',
  description:
    "Auto-compact at 90% of the model's window (last request's input + output); the history becomes the most recent user messages (≤ 20,000 tokens) and a prefixed summary.",
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  getSessionKnobs: (info) => {
    const fromLog = info.contextWindow !== undefined && info.contextWindow > 0;
    const knobs = { ...DEFAULTS, contextWindow: fromLog ? info.contextWindow! : DEFAULTS.contextWindow };
    const notes = [
      fromLog
        ? `Window ${knobs.contextWindow.toLocaleString('en-US')} tokens: the log's model_context_window.`
        : `The log states no window: Codex's ${DEFAULTS.contextWindow.toLocaleString('en-US')} (272,000 × 95%).`,
    ];
    if (info.format !== undefined && info.format !== 'codex-cli')
      notes.push('The log is not a Codex CLI rollout, so its compactions are not expected to match.');
    return { knobs, notes };
  },
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    if (knobs.autoCompactEnabled)
      lines.push({
        id: 'auto-compact',
        label: 'Auto-compact',
        tokens: getCodexThreshold(knobs),
        kind: 'trigger',
      });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  createRun: (knobs, prepared) => new CodexRun(knobs, prepared),
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [CODEX],
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow'],
};
