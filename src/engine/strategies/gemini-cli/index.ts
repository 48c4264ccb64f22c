import type { Restoration } from '../../compact/restore';
import { isSafeCut } from '../../simulation/cuts';
import type { PreparedReplay } from '../../simulation/prepared';
import { lowerBound } from '../../simulation/search';
import { getPositionFacts } from '../../simulation/turns';
import { CHARS_PER_TOKEN, estimateTextTokens } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import type {
  CompactionStrategy,
  ReplayView,
  SessionInfo,
  StepOutcome,
  StrategyAction,
  StrategyRun,
} from '../types';
import { getProfile, pickProfile } from '../version-profile';
import {
  GEMINI_PROFILES,
  isMaskingOn,
  MASKED_RESPONSE_TOKENS,
  MASKING_EXEMPT_TOOLS,
  MEMORY_TOOL,
  MaskingPlanner,
} from './masking';
import { GEMINI_CLI } from './prompt';
import { GEMINI_CLI_DESCRIPTOR, getGeminiThreshold } from './descriptor';
import { getGeminiTokenLimit } from '../../parse/dialects/gemini-cli/info';
import { COMPRESSION_RELEASES, DEFAULTS, type GeminiCliKnobs } from './knobs';

// Gemini CLI's chat compression (docs/sources.md#gemini-cli, #agents-observations, #agents-simulate-first; sources
// there: google-gemini/gemini-cli `packages/core/src/context/chatCompressionService.ts`,
// `packages/core/src/prompts/snippets.ts`, docs/cli/settings.md):
//   - before a request, the last response's prompt token count (its input, `promptTokenCount`)
//     ≥ `model.compressionThreshold` (0.5) × the model's token limit starts a compression. What
//     is compared is `chat.getLastPromptTokenCount()` (google-gemini/gemini-cli@aee560c2eb35cf9a21c5f032ae0236939a02496f
//     (v0.29.5):packages/core/src/services/chatCompressionService.ts:263-270), which every
//     response reporting usage sets (core/geminiChat.ts:848-853), one the chat file does not keep
//     included: an invalid stream's, retried as "System: Please continue." (core/client.ts:723-736),
//     whose tokens the recorder queues for a message that never comes
//     (services/chatRecordingService.ts:299-308); after tool-output masking, an estimate of the
//     history until the next response (geminiChat.ts:705-709). The pending request (the new
//     message or tool output) is not in it: only the overflow check after the compression adds
//     it (client.ts:577-600). The replay compares the prompts the chat records; a notice whose count
//     exceeds all of them came from a response it does not hold (the notes say so);
//   - tool output first: newest first, function responses are counted against a 50,000-token
//     budget (`COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET`); once over it, a response longer than
//     the tool-output truncation threshold is cut to that many characters (first 20%, last 80%)
//     with a pointer to the full output saved on disk (`truncateHistoryToBudget`,
//     fileUtils.ts `formatTruncatedToolOutput`) — the `replace` action on the kept part;
//   - the split (`findCompressSplitPoint`, fraction 1 − `COMPRESSION_PRESERVE_THRESHOLD` 0.3):
//     characters of each message (`JSON.stringify(content).length`) summed from the oldest; the
//     first user message that is not a function response at or past 70% of the total is where the
//     kept part starts (else the last such message; everything when the history ends on a model
//     answer without a function call). Nothing older than the kept part: no compression;
//   - the older part is summarized into a `<state_snapshot>`, then a second call (the "probe")
//     asks the model to check its snapshot and re-emit it: two LLM calls. The history becomes the
//     snapshot (a user message), the model's acknowledgement and the kept part;
//   - a compression that would leave more tokens than it started from is discarded
//     (`COMPRESSION_FAILED_INFLATED_TOKEN_COUNT`) and later automatic attempts only truncate tool
//     output (`hasFailedCompressionAttempt`).
// Characters come from simulation/turns.ts (block lengths plus a serialization envelope); a
// summary the replay simulated counts 4 characters per token.

/** The model's acknowledgement after the snapshot ("Got it. Thanks for the additional context!"). */
const GEMINI_ACK_TOKENS: TokenCount = estimateTextTokens('Got it. Thanks for the additional context!'.length);

/** formatTruncatedToolOutput's header line and omission marker around the kept characters. */
const TRUNCATION_NOTICE_CHARS = 200;

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

/** The characters of `[fromPos, …)` the split walks, with a carried summary first. */
interface SplitInput {
  /** Characters of a leading synthetic summary (0: none). */
  headChars: number;
  /** Live positions, ascending, and their characters (truncated responses at their new size). */
  positions: number[];
  chars: number[];
  /** Positions where a split may fall (user turns, safe cuts). */
  candidate: (pos: number) => boolean;
  /** The history ends on a model answer without a function call. */
  endsOnAnswer: boolean;
}

/**
 * `findCompressSplitPoint`: the first kept position, `Infinity` to compress everything, or −1
 * when nothing would be compressed (the split falls on the summary itself or the first message).
 */
export function findGeminiSplit(input: SplitInput, fraction: number): number {
  let total = input.headChars;
  for (const c of input.chars) total += c;
  const target = total * fraction;
  // The carried summary is a user message that is not a function response: split point 0.
  let last = -1;
  let cumulative = input.headChars;
  for (let i = 0; i < input.positions.length; i++) {
    const p = input.positions[i]!;
    if (input.candidate(p)) {
      // Index 0 of Gemini's list (the first message, or the summary before it) compresses nothing.
      const first = i === 0 && input.headChars === 0;
      if (cumulative >= target) return first ? -1 : p;
      if (!first) last = p;
    }
    cumulative += input.chars[i]!;
  }
  if (input.endsOnAnswer) return Number.POSITIVE_INFINITY;
  return last;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface Plan {
  /** Clearable items to truncate (tool results over the budget, longer than the kept size). */
  truncated: number[];
  /** Tokens the truncation saves (attributed, net of the notice). */
  truncatedSaved: TokenCount;
  noticeTokens: TokenCount;
}

class GeminiCliRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly threshold: TokenCount;
  private readonly chars: Float64Array;
  private readonly userTurn: Uint8Array;
  private readonly noticeTokens: TokenCount;
  /** `hasFailedCompressionAttempt`: later automatic attempts only truncate. */
  private failed = false;
  private readonly masking: boolean;
  private readonly planner: MaskingPlanner;

  constructor(
    private readonly knobs: GeminiCliKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.tokenLimit;
    this.threshold = getGeminiThreshold(knobs);
    const facts = getPositionFacts(prepared);
    this.chars = facts.chars;
    this.userTurn = new Uint8Array(prepared.ctxEntry.length);
    for (const p of facts.userTurnPos) this.userTurn[p] = 1;
    this.noticeTokens = estimateTextTokens(knobs.truncateOutputChars + TRUNCATION_NOTICE_CHARS);
    this.masking = isMaskingOn(knobs.profile, knobs.maskingEnabled);
    const exempt = new Set(
      knobs.profile === 'masking-no-memory' ? MASKING_EXEMPT_TOOLS : [...MASKING_EXEMPT_TOOLS, MEMORY_TOOL],
    );
    this.planner = new MaskingPlanner(prepared, knobs, exempt);
  }

  /** `truncateHistoryToBudget` over the live history [from, to): newest first. */
  private planTruncation(view: ReplayView, from: number): Plan {
    const { pos, tool, estimate, tokens } = this.prepared.clearables;
    const { truncateOutputChars, functionResponseBudgetTokens } = this.knobs;
    const truncated: number[] = [];
    let counter = 0;
    let saved = 0;
    for (let i = lowerBound(pos, view.boundaryPos) - 1; i >= 0 && pos[i]! >= from; i--) {
      if (tool[i]! < 0) continue;
      const cleared = view.isCleared(i);
      const t = cleared ? this.noticeTokens : estimate[i]!;
      if (
        counter + t > functionResponseBudgetTokens &&
        !cleared &&
        estimate[i]! * CHARS_PER_TOKEN > truncateOutputChars
      ) {
        truncated.push(i);
        counter += this.noticeTokens;
        saved += Math.max(0, tokens[i]! - this.noticeTokens);
      } else counter += t;
    }
    return { truncated: truncated.reverse(), truncatedSaved: saved, noticeTokens: this.noticeTokens };
  }

  /**
   * Before each request: chat compression, then tool-output masking of the history as it then
   * stands (client.ts:689-699). After a compression the replay masks at the next request (ours: the
   * replay applies one step's actions to the history the step saw).
   */
  step(view: ReplayView): StepOutcome | undefined {
    return this.compress(view) ?? this.mask(view);
  }

  private mask(view: ReplayView): StepOutcome | undefined {
    if (!this.masking) return undefined;
    const plan = this.planner.plan(view);
    if (!plan) return undefined;
    return {
      actions: [
        {
          kind: 'replace',
          items: plan.items,
          noticeTokens: MASKED_RESPONSE_TOKENS,
          checkTokens: plan.prunableTokens,
          thresholdTokens: this.knobs.maskingMinPrunableTokens,
          note: `tool-output masking: ${plan.items.length} function responses older than the newest ${fmt(this.knobs.maskingProtectionTokens)} tokens of tool output (${fmt(plan.prunableTokens)} prunable ≥ ${fmt(this.knobs.maskingMinPrunableTokens)}) replaced by <tool_output_masked> previews`,
        },
      ],
    };
  }

  private compress(view: ReplayView): StepOutcome | undefined {
    const manual = view.manual !== undefined;
    // `lastPromptTokenCount`: the last request's input, not its output.
    if (!manual && view.contextTokens < this.threshold) return undefined;
    const { prepared } = this;
    const from = view.liveFromPos;
    const plan = this.planTruncation(view, from);
    const truncate = (items: number[], why: string): StrategyAction => ({
      kind: 'replace',
      items,
      noticeTokens: plan.noticeTokens,
      checkTokens: view.contextTokens,
      thresholdTokens: this.threshold,
      note: `${why}: ${items.length} function responses over the ${fmt(this.knobs.functionResponseBudgetTokens)}-token budget cut to ${fmt(this.knobs.truncateOutputChars)} characters`,
    });
    if (this.failed && !manual) {
      // A failed compression earlier: truncation only, when it reduces anything.
      return plan.truncated.length
        ? { actions: [truncate(plan.truncated, 'an earlier compression failed, truncation only')] }
        : undefined;
    }

    // The split over the history as truncated.
    const synthetic = Math.max(
      0,
      view.contextTokens - prepared.baseTokens - view.getLiveTokens(from, prepared.callPos[view.callPos]!),
    );
    // A summary (simulated or the log's) heads the history only after a compaction.
    const headChars = from > 0 ? synthetic * CHARS_PER_TOKEN : 0;
    const truncatedSet = new Set(plan.truncated);
    const { pos: itemPos, estimate } = prepared.clearables;
    const positions: number[] = [];
    const chars: number[] = [];
    let item = lowerBound(itemPos, from);
    for (let p = from; p < view.boundaryPos; p++) {
      let c = this.chars[p]!;
      for (; item < itemPos.length && itemPos[item]! === p; item++) {
        if (truncatedSet.has(item) || view.isCleared(item))
          c -= Math.max(
            0,
            estimate[item]! * CHARS_PER_TOKEN - this.knobs.truncateOutputChars - TRUNCATION_NOTICE_CHARS,
          );
      }
      positions.push(p);
      chars.push(Math.max(0, c));
    }
    const lastPos = positions[positions.length - 1];
    const lastEntry =
      lastPos === undefined ? undefined : prepared.session.entries[prepared.ctxEntry[lastPos]!];
    const endsOnAnswer =
      lastEntry?.kind === 'assistant' && lastEntry.blocks.every((b) => b.kind !== 'tool-use');
    const split = findGeminiSplit(
      {
        headChars,
        positions,
        chars,
        candidate: (p) => this.userTurn[p] === 1 && isSafeCut(prepared, p, view.boundaryPos),
        endsOnAnswer,
      },
      1 - this.knobs.preserveFraction,
    );
    if (split < 0) return undefined;
    const keepAll = split === Number.POSITIVE_INFINITY;
    const keepFromPos = keepAll ? undefined : split;
    if (keepFromPos !== undefined && keepFromPos <= from && headChars === 0) return undefined;

    // The truncation is applied to the whole history; only the kept part's survives the summary.
    const keptTruncated =
      keepFromPos === undefined ? [] : plan.truncated.filter((i) => itemPos[i]! >= keepFromPos);
    let keptSaved = 0;
    for (const i of keptTruncated)
      keptSaved += Math.max(0, prepared.clearables.tokens[i]! - plan.noticeTokens);
    const mechanism = keepFromPos === undefined ? 'full' : 'partial';
    const summary = view.getSummaryTokens(mechanism, keepFromPos) + GEMINI_ACK_TOKENS;
    const post = view.estimatePostTokens(summary, 0, keepFromPos) - keptSaved;
    if (post > view.contextTokens && !manual) {
      // COMPRESSION_FAILED_INFLATED_TOKEN_COUNT: the new history is discarded.
      this.failed = true;
      return undefined;
    }
    const actions: StrategyAction[] = [];
    if (keptTruncated.length) actions.push(truncate(keptTruncated, 'before compressing'));
    const keptChars =
      keepFromPos === undefined ? 0 : chars.slice(positions.indexOf(keepFromPos)).reduce((a, b) => a + b, 0);
    let totalChars = headChars;
    for (const c of chars) totalChars += c;
    actions.push({
      kind: 'summarize',
      mechanism,
      trigger: manual ? 'manual' : 'auto',
      checkTokens: view.contextTokens,
      thresholdTokens: this.threshold,
      restoration: NO_RESTORATION,
      keepFromPos,
      keepDirection: keepFromPos === undefined ? undefined : 'up-to',
      continuation: { format: 'v2.1.68', auto: !manual },
      summaryOverheadTokens: GEMINI_ACK_TOKENS,
      summaryOverheadSource:
        'the model’s acknowledgement after the snapshot (“Got it. Thanks for the additional context!”) at 4 characters per token',
      requestVariant: 'full',
      promptPresetId: GEMINI_CLI.id,
      llmCalls: this.knobs.probe ? 2 : 1,
      customInstructions: view.manual?.customInstructions,
      note: `${manual ? '/compress' : `last prompt ${fmt(view.contextTokens)} tokens ≥ ${this.knobs.compressionThreshold} × ${fmt(this.knobs.tokenLimit)}`}; ${
        keepFromPos === undefined
          ? 'the history ends on an answer: all of it compressed'
          : `newest ${fmt(keptChars)} of ${fmt(totalChars)} characters kept (${Math.round((keptChars / Math.max(1, totalChars)) * 100)}%), from a user message`
      }; <state_snapshot>${this.knobs.probe ? ' and the verification probe (2 LLM calls)' : ''}`,
    });
    return { actions };
  }
}

/**
 * A compression whose notice counts more than any prompt the chat records before it: Gemini CLI
 * compared the prompt of a response the chat does not keep (see the rules above), which the
 * replay cannot see.
 */
function describeUnrecordedCounts(info: SessionInfo): string[] {
  return (info.loggedCompactions ?? [])
    .filter((c) => c.trigger === 'auto' && c.preTokens !== undefined && c.preTokens > c.peakPromptBefore)
    .map(
      (c) =>
        `The compression after API call ${c.afterCall + 1} compared ${fmt(c.preTokens!)} tokens, more than any prompt the chat records before it (${fmt(c.peakPromptBefore)}): Gemini CLI compares the last response's promptTokenCount, set by every response with usage, one the chat does not keep included (an invalid stream retried as "System: Please continue."; chatCompressionService.ts:263-270, geminiChat.ts:848-853, chatRecordingService.ts:299-308 at v0.29.5). The replay compares the recorded prompts: it cannot fire where that response's count did.`,
    );
}

export const GEMINI_CLI_STRATEGY: CompactionStrategy<GeminiCliKnobs> = {
  ...GEMINI_CLI_DESCRIPTOR,
  getSessionKnobs: (info) => {
    const pick = pickProfile(GEMINI_PROFILES, info, 'Gemini CLI', ['gemini-cli', 'gemini-cli-json']);
    const knobs = { ...DEFAULTS, profile: pick.profile.id };
    const notes: string[] = [pick.note];
    notes.push(
      isMaskingOn(knobs.profile, knobs.maskingEnabled)
        ? 'Tool-output masking on: before each request, function responses older than the newest 50,000 tokens of tool output are replaced by previews once 30,000 tokens can go.'
        : `Tool-output masking off (${getProfile(GEMINI_PROFILES, knobs.profile).label}).`,
    );
    const inferred = info.windowInference;
    const limits = info.models.map(getGeminiTokenLimit).filter((t): t is number => t !== undefined);
    if (limits.length) {
      knobs.tokenLimit = Math.max(...limits);
      notes.push(`Token limit ${fmt(knobs.tokenLimit)}: Gemini CLI's for ${info.models.join(', ')}.`);
    } else if (inferred && inferred.windowTokens > 0) {
      knobs.tokenLimit = inferred.windowTokens;
      notes.push(
        `Token limit ${fmt(knobs.tokenLimit)}: the log's window (${inferred.reasons[0] ?? 'inferred'}), as Gemini CLI would use for that model.`,
      );
    } else notes.push(`Token limit ${fmt(knobs.tokenLimit)}: Gemini CLI's default.`);
    const release = pickProfile(COMPRESSION_RELEASES, info, 'Gemini CLI', ['gemini-cli', 'gemini-cli-json']);
    knobs.compressionThreshold = release.profile.threshold;
    notes.push(
      `Compresses at ${fmt(getGeminiThreshold(knobs))} (${knobs.compressionThreshold} × the limit: the default of Gemini CLI ${release.profile.label.replace(/^[\d.]+ \((.*)\)$/, '$1')}, ${release.basis === 'version' ? 'the release the log names' : release.basis === 'date' ? 'the release current on the day the log started' : 'the newest release'}).`,
    );
    if (info.format !== 'gemini-cli' && info.format !== 'gemini-cli-json')
      notes.push('The log is not a Gemini CLI chat, so its compactions are not expected to match.');
    // parse/dialects/gemini-cli/normalizer.ts: a compression writes no record of its own
    // (chatRecordingService.ts); its only trace is the CLI's "compressed from N to M tokens" notice.
    else if (info.autoCompactions > 0) {
      notes.push(
        `The log's ${info.autoCompactions === 1 ? 'compression is' : `${info.autoCompactions} compressions are`} read from the CLI's notice ("This conversation exceeded the compress threshold … compressed from N to M tokens", or from 0.33 "Context compressed from X% to Y%" of the limit), N being Gemini CLI's own count.`,
      );
      notes.push(...describeUnrecordedCounts(info));
    } else
      notes.push(
        "The chat holds no compression notice: the replay's compressions have no logged event to be compared with (only the model's limit is the log's).",
      );
    return { knobs, notes };
  },
  createRun: (knobs, prepared) => new GeminiCliRun(knobs, prepared),
};
