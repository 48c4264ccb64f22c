import type { Restoration } from '../../compact/restore';
import { isSafeCut } from '../../simulation/cuts';
import { lowerBound } from '../../simulation/search';
import type { PreparedReplay } from '../../simulation/prepared';
import type { TokenCount } from '../../types';
import type { CompactionStrategy, ReplayView, StepOutcome, StrategyAction, StrategyRun } from '../types';
import { compareVersions, getProfile, pickProfile } from '../version-profile';
import { getPositionFacts } from '../../simulation/turns';
import { CODEX } from './prompt';
import {
  CODEX_DESCRIPTOR,
  CODEX_HISTORY_SOURCE,
  CODEX_LAST_RAW_WINDOW_VERSION,
  CODEX_PROFILES,
  type CodexKnobs,
  DEFAULTS,
  getCodexRawWindow,
  getCodexThreshold,
} from './descriptor';

// OpenAI Codex CLI's local compaction (docs/sources.md#codex row, §2.2,
// §5.2; sources there: openai/codex `codex-rs/core/src/compact.rs`,
// `codex-rs/core/templates/compact/{prompt.md,summary_prefix.md}`,
// `codex-rs/protocol/src/openai_models.rs`):
//   - after each sampling request, `get_total_token_usage` is compared with
//     `auto_compact_token_limit`: the model's explicit limit, else 90% of its *raw* window
//     (`context_window * 9 / 10`: 244,800 for 272,000) — openai/codex@0d4367d0e6a976082b36d9eea8f8a579fca368cb:codex-rs/protocol/src/openai_models.rs
//     (`ModelInfo::auto_compact_token_limit`; [index] copy, see the note below). The count is the
//     last response's `total_tokens` plus Codex's estimate of the encrypted reasoning items before
//     the last user message (`get_non_last_reasoning_items_tokens`: each item's
//     `encrypted_content.len() × 3/4 − 650` bytes, summed, / 4; an item with a readable summary
//     counts its encrypted content all the same) — openai/codex history.rs
//     `get_total_token_usage` ([index] file 27803137400); newer copies add an estimate of the
//     items after the last model-generated item (tool outputs) and skip the reasoning term when
//     the server reports it counted — openai/codex@023fad268e08c252b94e4a95cb3c7f2f08c2a972:codex-rs/core/src/context_manager/history.rs
//     (`items_after_last_model_generated_item`; [index], no release known);
//   - the earlier model here compared the last usage alone with 90% of the *logged* (effective)
//     window, 232,560: a value that fits one rollout (LAF-US__IDAHO-VAULT 2026-04-01, a compaction
//     at 233,087), not the source's default. The source's count explains all three real
//     compactions of the corpus (213,218 + 32,044 reasoning; 253,066 + 2,712; 232,571 + 16,395 ≥ 244,800);
//   - when the compaction request itself exceeds the window (`ContextWindowExceeded`), Codex drops
//     the oldest history item (and its call/output partner) and retries (`remove_first_item`,
//     compact.rs `run_compact_task_inner` @0100b103625752f6a10c21b79a8c423761dc4c6a, [index]): the
//     replay drops the oldest positions until the request fits, a `truncate` before the summary;
//   - at or above it, the whole history is summarized and replaced by: the initial context (system
//     prompt, tools: the replay's base), the most recent *user* messages up to 20,000 tokens
//     (`COMPACT_USER_MESSAGE_MAX_TOKENS`; the message that crosses the budget is truncated to what
//     is left), and the summary as a user message prefixed with summary_prefix.md.
// No tool results survive, no files are re-attached. The window is the one rollouts log as
// `model_context_window`, which is already the effective window (272,000 × 95% = 258,400,
// `effective_context_window_percent` 95, openai_models.rs `default_effective_context_window_percent`);
// the raw window is that ÷ 0.95. [index]: the stored-file index's copy of openai/codex also holds
// fork content, so its commits are not proven upstream (/work notes, issue 19 §3).

/** summary_prefix.md is 400 characters; Codex prices text at 4 bytes per token (truncate.rs). */
const CODEX_SUMMARY_PREFIX_TOKENS: TokenCount = 100;

/** `estimate_reasoning_length`: the decoded bytes of a base64 `encrypted_content`, less its overhead. */
function estimateCodexReasoningBytes(encodedChars: number): number {
  return Math.max(0, Math.floor((encodedChars * 3) / 4) - 650);
}

/** Where Codex's trigger count is summed (`get_total_token_usage`), as the card cites it. */
const CODEX_COUNT_SOURCE = `${CODEX_HISTORY_SOURCE} (get_total_token_usage)`;
/** How Codex estimates the reasoning it cannot read (the card's citation). */
const CODEX_REASONING_SOURCE = `${CODEX_HISTORY_SOURCE} (get_non_last_reasoning_items_tokens: the encrypted reasoning items before the last user message, each estimate_reasoning_length = encrypted_content.len() × 3/4 − 650 bytes, summed, ÷ 4 bytes a token)`;

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface KeptMessage {
  entryIndex: number;
  tokens: TokenCount;
}

class CodexRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly threshold: TokenCount;
  private readonly rawWindow: TokenCount;
  /** Context positions of messages the person typed (no tool output, no injected context). */
  private readonly userPos: Int32Array;
  /** Boundaries of the log's own compactions: after adopting one, its history is the log's. */
  private readonly realBoundaries: Set<number>;
  /** User messages the last simulated compaction kept, and the position it resumed from. */
  private kept: KeptMessage[] = [];
  private keptFromPos = -1;
  /** Prefix sums of `estimate_reasoning_length` bytes of the encrypted reasoning at each position. */
  private readonly reasoningBytes: Float64Array;
  /** Positions of user-role messages (typed or injected; not tool outputs): `rposition(role == "user")`. */
  private readonly userMessagePos: Int32Array;
  private readonly chars: Float64Array;

  constructor(
    private readonly knobs: CodexKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    this.threshold = getCodexThreshold(knobs);
    this.rawWindow = getCodexRawWindow(knobs);
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
    this.reasoningBytes = new Float64Array(ctxEntry.length + 1);
    const messages: number[] = [];
    for (let p = 0; p < ctxEntry.length; p++) {
      const e = session.entries[ctxEntry[p]!];
      let bytes = 0;
      if (e && artifactOf[p] === 0 && e.kind === 'assistant')
        for (const b of e.blocks)
          if (b.kind === 'thinking' && b.encryptedChars)
            bytes += estimateCodexReasoningBytes(b.encryptedChars);
      this.reasoningBytes[p + 1] = this.reasoningBytes[p]! + bytes;
      if (
        e &&
        artifactOf[p] === 0 &&
        e.kind === 'user' &&
        e.blocks.length > 0 &&
        e.blocks.every((b) => b.kind === 'text' || b.kind === 'image')
      )
        messages.push(p);
    }
    this.userMessagePos = Int32Array.from(messages);
    this.chars = getPositionFacts(prepared).chars;
  }

  /**
   * `get_total_token_usage`: the last response's `total_tokens`, plus the estimate of the
   * encrypted reasoning before the last user message, plus (newer copies) the items after the
   * last model-generated item. Returns the count and what it added.
   *
   * The history counted is the one the check saw: up to the answered call's last model-generated
   * item and the tool outputs after it. A next turn's prompt, and the context injected with it, is
   * recorded after the pre-turn check (a 0.105.0 rollout writes its `compacted` record between
   * `task_started` and the turn's context and prompt; Codex's run_turn: "Pre-turn compaction runs
   * before context updates and the new user message are recorded", [index] file 58595352496),
   * so the last user message is the one before that item: counting the next prompt as the last
   * took the whole turn's reasoning in (51,921 tokens where the rule gives 50,142 on that
   * rollout). A mid-turn check sees tool outputs only after the item, so it is the same there.
   */
  private count(view: ReplayView): { tokens: TokenCount; reasoning: TokenCount; since: TokenCount } {
    const { session, ctxEntry, artifactOf, callPos } = this.prepared;
    let lastModelItem = view.boundaryPos - 1;
    while (
      lastModelItem > callPos[view.callPos]! &&
      session.entries[ctxEntry[lastModelItem]!]?.kind !== 'assistant'
    )
      lastModelItem--;
    const nextInput = lowerBound(this.userMessagePos, lastModelItem + 1);
    let reasoning = 0;
    if (this.knobs.countReasoning) {
      const lastUser = nextInput > 0 ? this.userMessagePos[nextInput - 1]! : -1;
      if (lastUser > view.liveFromPos)
        reasoning = Math.ceil((this.reasoningBytes[lastUser]! - this.reasoningBytes[view.liveFromPos]!) / 4);
    }
    let since = 0;
    if (this.knobs.countItemsSinceUsage) {
      // The tool outputs after the item, not a next turn's input (recorded after the check).
      const end = Math.min(view.boundaryPos, this.userMessagePos[nextInput] ?? view.boundaryPos);
      let chars = 0;
      for (let p = lastModelItem + 1; p < end; p++) if (artifactOf[p] === 0) chars += this.chars[p]!;
      since = Math.ceil(chars / 4);
    }
    return { tokens: view.usageTokens + reasoning + since, reasoning, since };
  }

  step(view: ReplayView): StepOutcome | undefined {
    if (view.manual)
      return { actions: this.withOverflow(view, this.compaction(view, 'manual', view.checkTokens)) };
    if (!this.knobs.autoCompactEnabled || this.knobs.profile === 'manual-only') return undefined;
    const count = this.count(view);
    if (count.tokens < this.threshold) return undefined;
    const action = this.compaction(view, 'auto', count.tokens);
    if (action.kind === 'summarize' && (count.reasoning || count.since)) {
      action.note = `count ${fmt(view.usageTokens)} last usage${count.reasoning ? ` + ${fmt(count.reasoning)} earlier reasoning` : ''}${count.since ? ` + ${fmt(count.since)} items since` : ''}; ${action.note}`;
      action.countParts = [
        {
          label: "the last response's total_tokens (input + output)",
          tokens: view.usageTokens,
          source: CODEX_COUNT_SOURCE,
        },
        ...(count.reasoning
          ? [
              {
                label: 'its estimate of the earlier encrypted reasoning',
                tokens: count.reasoning,
                source: CODEX_REASONING_SOURCE,
              },
            ]
          : []),
        ...(count.since
          ? [{ label: 'its estimate of the items since', tokens: count.since, source: CODEX_COUNT_SOURCE }]
          : []),
      ];
    }
    return { actions: this.withOverflow(view, action) };
  }

  /**
   * The overflow path: while the compaction request exceeds the raw window, Codex drops the
   * oldest item (with its call/output partner) and retries — here one cut at the first safe
   * position that brings the request under the window's size.
   */
  private withOverflow(view: ReplayView, action: StrategyAction): StrategyAction[] {
    if (!this.knobs.overflowTrim) return [action];
    const request = view.getSpanTokens();
    const excess = request - this.rawWindow;
    if (excess <= 0) return [action];
    const from = view.liveFromPos;
    let q = from + 1;
    while (
      q < view.boundaryPos &&
      (view.getLiveTokens(from, q) < excess || !isSafeCut(this.prepared, q, view.boundaryPos))
    )
      q++;
    if (q >= view.boundaryPos) return [action];
    return [
      {
        kind: 'truncate',
        fromPos: from,
        toPos: q,
        noticeTokens: 0,
        checkTokens: request,
        thresholdTokens: this.rawWindow,
        note: `the compaction request (${fmt(request)}) exceeds the ${fmt(this.rawWindow)}-token window: the oldest items dropped until it fits (remove_first_item, then retry)`,
      },
      action,
    ];
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

  private compaction(view: ReplayView, trigger: 'auto' | 'manual', checkTokens: TokenCount): StrategyAction {
    const kept = this.selectUserMessages(view);
    let keptTokens = 0;
    for (const m of kept) keptTokens += m.tokens;
    this.kept = kept;
    this.keptFromPos = view.boundaryPos;
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger,
      checkTokens,
      thresholdTokens: this.threshold,
      restoration: NO_RESTORATION,
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      summaryOverheadTokens: CODEX_SUMMARY_PREFIX_TOKENS,
      summaryOverheadSource:
        'summary_prefix.md before the summary (400 characters) at Codex’s 4 bytes per token (truncate.rs); the recent user messages kept beside it are counted apart',
      keptMessages: { entryIndices: kept.map((m) => m.entryIndex), tokens: keptTokens },
      requestVariant: 'full',
      promptPresetId: CODEX.id,
      customInstructions: view.manual?.customInstructions,
      note: `${kept.length} user messages kept (${keptTokens.toLocaleString('en-US')} of ${this.knobs.userMessageBudgetTokens.toLocaleString('en-US')} tokens) with the prefixed summary`,
    };
  }
}

export const CODEX_STRATEGY: CompactionStrategy<CodexKnobs> = {
  ...CODEX_DESCRIPTOR,
  getSessionKnobs: (info) => {
    const fromLog = info.contextWindow !== undefined && info.contextWindow > 0;
    // Another agent's log: its model's window, as Codex would see that model (its raw window, 95%
    // of it effective), not GPT-5's 272,000 (a Claude log is not replayed past its 200k).
    const foreign =
      !fromLog && info.format !== undefined && info.format !== 'codex-cli' ? info.windowInference : undefined;
    const pick = pickProfile(CODEX_PROFILES, info, 'Codex CLI', ['codex-cli']);
    const knobs: CodexKnobs = {
      ...DEFAULTS,
      profile: pick.profile.id,
      contextWindow: fromLog
        ? info.contextWindow!
        : foreign
          ? Math.round((foreign.windowTokens * DEFAULTS.effectiveWindowPercent) / 100)
          : DEFAULTS.contextWindow,
    };
    // A release that logged the raw window: the logged window is the whole of it (0.0.0 is a
    // build from source, no release).
    const releases = info.versions.filter((v) => /^\d+\.\d+/.test(v) && !/^0\.0\.0/.test(v));
    const newest = releases.sort(compareVersions).at(-1);
    const loggedRaw =
      fromLog &&
      info.format === 'codex-cli' &&
      newest !== undefined &&
      compareVersions(newest, `${CODEX_LAST_RAW_WINDOW_VERSION}.999`) <= 0;
    if (loggedRaw) knobs.effectiveWindowPercent = 100;
    const notes = [
      pick.note,
      knobs.profile === 'manual-only'
        ? `${getProfile(CODEX_PROFILES, knobs.profile).label}: the replay compacts only where asked.`
        : `Auto-compacts at ${fmt(getCodexThreshold(knobs))} on the last usage plus Codex's estimate of the earlier encrypted reasoning${knobs.profile === 'percent-90' ? ` (90% of the raw window ${fmt(getCodexRawWindow(knobs))})` : ''}.`,
      fromLog
        ? `Window ${knobs.contextWindow.toLocaleString('en-US')} tokens: the log's model_context_window${loggedRaw ? `, the model's whole window: Codex CLI ${newest} logged the raw window (its releases to ${CODEX_LAST_RAW_WINDOW_VERSION}.x do; later ones log 95% of it), so the auto-compact limit is 90% of it` : ''}.`
        : foreign
          ? `Window ${fmt(knobs.contextWindow)} tokens: ${DEFAULTS.effectiveWindowPercent}% of the log's ${fmt(foreign.windowTokens)}-token window, the share of a model's window Codex uses.`
          : `The log states no window: Codex's ${DEFAULTS.contextWindow.toLocaleString('en-US')} (272,000 × 95%).`,
    ];
    if (info.format !== undefined && info.format !== 'codex-cli')
      notes.push('The log is not a Codex CLI rollout, so its compactions are not expected to match.');
    return { knobs, notes };
  },
  createRun: (knobs, prepared) => new CodexRun(knobs, prepared),
};
