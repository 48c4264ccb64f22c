import type { PreparedReplay } from '../../simulation/prepared';
import { PrefixSums } from '../../simulation/prefix-sums';
import { lowerBound } from '../../simulation/search';
import { CHARS_PER_TOKEN } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import type { ReplayView } from '../types';
import type { VersionProfile } from '../version-profile';

// Gemini CLI's tool-output masking (`ToolOutputMaskingService.mask`), once per request to the model
// after chat compression, over the history as it stands (the pending request is not in it yet) —
// google-gemini/gemini-cli@5411f113cafae26161b4969b0237b8e1e024e2c2:packages/core/src/core/client.ts:689-699:
//   - scan function responses newest first, from the second-last history entry when the latest
//     turn is protected (…/context/toolOutputMaskingService.ts:92-94), skipping exempt tools and
//     responses already masked (:109-119);
//   - their tokens fill a 50,000-token protection window; the response that crosses it and every
//     older one are prunable (:123-146);
//   - nothing happens unless the prunable ones total ≥ 30,000 tokens (:152-154);
//   - each prunable response becomes `<tool_output_masked>` + a preview + the path of the full
//     output on disk, only where that saves tokens (:224-242).

export const MASKING_SOURCE =
  'google-gemini/gemini-cli@5411f113cafae26161b4969b0237b8e1e024e2c2:packages/core/src/context/toolOutputMaskingService.ts';

/**
 * Characters of a masked response: `{"output":"<tool_output_masked>\n` (≈33) + a preview of the
 * pretty-printed response's first 250 + `\n... [TRUNCATED] ...\n` (21) + last 250 characters
 * (:207-213) + `\n\nOutput too large. Full output available at: ` (46) + the path
 * `~/.gemini/tmp/<64-hex project hash>/tool-outputs/session-<uuid>/<tool>_<call id>_<rand>.txt`
 * (≈ 200, :163-190) + `\n</tool_output_masked>"}` (≈24), JSON escaping ≈ 20: ≈ 840. A shell
 * output's preview (first and last 10 lines, :292-358) is taken as the same size — ours (why: the
 * lines' length is not in the source).
 */
const MASKED_RESPONSE_CHARS = 33 + 250 + 21 + 250 + 46 + 200 + 24 + 20;
export const MASKED_RESPONSE_TOKENS: TokenCount = Math.ceil(MASKED_RESPONSE_CHARS / CHARS_PER_TOKEN);

/** EXEMPT_TOOLS (:36-41; names at packages/core/src/tools/definitions/base-declarations.ts:97,101,115,119). */
export const MASKING_EXEMPT_TOOLS = ['activate_skill', 'ask_user', 'enter_plan_mode', 'exit_plan_mode'];
/** v0.29.0–v0.43 also exempted `save_memory` (gemini-cli@v0.29.0:packages/core/src/services/toolOutputMaskingService.ts:37-43). */
export const MEMORY_TOOL = 'save_memory';

export type GeminiProfileId =
  | 'compress-only'
  | 'masking-opt-in'
  | 'masking-default'
  | 'masking-always'
  | 'masking-no-memory';

/**
 * The masking releases. Dates are the first release's (the notes' tag dates), not the commit's:
 * the issue says "opt-in from 2026-02-05", the day the change was committed (PR #18389); the first
 * release that shipped it is v0.29.0-preview.0 of 2026-02-10 — the source's release wins. v0.37.0's
 * date is the commit's (2026-04-01): its release date is not in the notes.
 */
export const GEMINI_PROFILES: readonly VersionProfile<GeminiProfileId>[] = [
  {
    id: 'compress-only',
    label: 'before masking (≤ 0.28): chat compression only',
    from: {},
    source:
      'ours (why: ToolOutputMaskingService does not exist before google-gemini/gemini-cli@8ec176e00591016fef0b85baded6e543c05c3ce5)',
  },
  {
    id: 'masking-opt-in',
    label: 'masking opt-in (0.29): experimental.toolOutputMasking.enabled default false',
    from: { version: '0.29.0', date: '2026-02-10' },
    source:
      'google-gemini/gemini-cli@8ec176e00591016fef0b85baded6e543c05c3ce5:packages/cli/src/config/settingsSchema.ts:1478',
  },
  {
    id: 'masking-default',
    label: 'masking on by default (0.30–0.36)',
    from: { version: '0.30.0', date: '2026-02-17' },
    source:
      'google-gemini/gemini-cli@3776c4d61376d85b8ffe12d0ca639f660b18b78b:packages/cli/src/config/settingsSchema.ts:1482',
  },
  {
    id: 'masking-always',
    label: 'masking always on (0.37–0.43): the enabled setting is gone',
    from: { version: '0.37.0', date: '2026-04-01' },
    source: 'google-gemini/gemini-cli@377e834e03609920ed0c5e82bb590fdad67bf048 (PR #24391)',
  },
  {
    id: 'masking-no-memory',
    label: 'masking always on, save_memory no longer exempt (0.44+)',
    from: { version: '0.44.0', date: '2026-05-13' },
    source: 'google-gemini/gemini-cli@7504259d720d1d909f67aed43ece64a72c51936e',
  },
];

/** Whether a profile masks, given the `experimental.toolOutputMasking.enabled` setting ('profile': its default). */
export function isMaskingOn(profile: GeminiProfileId, setting: string): boolean {
  if (profile === 'compress-only') return false;
  if (profile === 'masking-always' || profile === 'masking-no-memory') return true;
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return profile === 'masking-default';
}

interface MaskingKnobs {
  maskingProtectionTokens: TokenCount;
  maskingMinPrunableTokens: TokenCount;
  maskingProtectLatestTurn: boolean;
}

interface MaskingPlan {
  items: number[];
  /** Gemini's estimate of the prunable responses (what the 30,000 compares). */
  prunableTokens: TokenCount;
  /** Its estimate of what masking them saves. */
  estimatedSavedTokens: TokenCount;
}

/**
 * Gemini CLI's `mask` over a replay, one call at a time. Its scan reads every function response of
 * the history at every request (Gemini CLI's cost too); here the responses that count (not exempt,
 * not masked yet) are kept in prefix sums, updated from the history's cleared items as they come
 * (`ReplayView.clearedOrder`), so the protection window's edge and the prunable total are two
 * searches: the per-call scan made a 40k-call replay take 42 s (20k calls 5.3 s, 10k 1.6 s), and
 * the compare view's Cancel waited for it.
 */
export class MaskingPlanner {
  /** Estimates of the responses that count (0 for the others). */
  private readonly live: PrefixSums;
  /** 1 for each response that counts and would save tokens masked (`savings > 0`). */
  private readonly big: PrefixSums;
  private readonly counted: Uint8Array;
  /** How much of `clearedOrder` has been read. */
  private seen = 0;

  constructor(
    private readonly prepared: PreparedReplay,
    private readonly knobs: MaskingKnobs,
    exempt: ReadonlySet<string>,
  ) {
    const { tool, estimate } = prepared.clearables;
    const n = tool.length;
    this.live = new PrefixSums(n);
    this.big = new PrefixSums(n);
    this.counted = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (tool[i]! < 0 || exempt.has(prepared.toolNames[tool[i]!]!)) continue;
      this.counted[i] = 1;
      this.live.add(i, estimate[i]!);
      if (estimate[i]! > MASKED_RESPONSE_TOKENS) this.big.add(i, 1);
    }
  }

  /** Takes the items cleared since the last call out of the sums. */
  private sync(view: ReplayView): void {
    const { estimate } = this.prepared.clearables;
    const cleared = view.clearedOrder;
    for (; this.seen < cleared.length; this.seen++) {
      const i = cleared[this.seen]!;
      if (!this.counted[i]) continue;
      this.counted[i] = 0;
      this.live.add(i, -estimate[i]!);
      if (estimate[i]! > MASKED_RESPONSE_TOKENS) this.big.add(i, -1);
    }
  }

  /**
   * The responses one `mask` call replaces in the live history, or undefined when the batch is
   * under the minimum. Gemini counts a response as `JSON.stringify(response).length / 4`
   * (gemini-cli@5411f113:packages/core/src/utils/tokenCalculation.ts:83-113): the clearables'
   * characters / 4 here. Newest first, responses fill the protection window; the one that crosses
   * it and every older one are prunable.
   */
  plan(view: ReplayView): MaskingPlan | undefined {
    this.sync(view);
    const { prepared, knobs } = this;
    const { pos, estimate } = prepared.clearables;
    // `mask` runs on `getHistory()` before the request is added to it: the function responses the
    // request sends (after the model's last answer) are not in the history yet. The latest history
    // entry is then that answer; it holds no function response, so protecting it changes nothing
    // here unless the history ends on responses (ours: positions after the last model entry are
    // the pending request).
    const { session, ctxEntry } = prepared;
    let historyEnd = view.boundaryPos;
    while (historyEnd > view.liveFromPos && session.entries[ctxEntry[historyEnd - 1]!]?.kind !== 'assistant')
      historyEnd--;
    if (historyEnd === view.liveFromPos) historyEnd = view.boundaryPos;
    const first = lowerBound(pos, view.liveFromPos);
    let end = lowerBound(pos, historyEnd);
    // The latest turn's responses are skipped: neither protected nor prunable.
    if (knobs.maskingProtectLatestTurn) end = Math.min(end, lowerBound(pos, historyEnd - 1));
    if (end <= first) return undefined;
    const { live, big } = this;
    const atEnd = live.prefix(end);
    // The crossing response: the newest whose sum with every newer one exceeds the protected window
    const crossing = live.countBelow(atEnd - knobs.maskingProtectionTokens);
    if (crossing < first || crossing >= end) return undefined;
    const prunableTokens = live.prefix(crossing + 1) - live.prefix(first);
    if (prunableTokens < knobs.maskingMinPrunableTokens) return undefined;
    // `savings > 0` only (:233-242): the prunable ones larger than their masked form, oldest first.
    const before = big.prefix(first);
    const count = big.prefix(crossing + 1) - before;
    if (count === 0) return undefined;
    const items: number[] = [];
    let estimatedSavedTokens = 0;
    for (let k = 1; k <= count; k++) {
      const i = big.countBelow(before + k);
      items.push(i);
      estimatedSavedTokens += estimate[i]! - MASKED_RESPONSE_TOKENS;
    }
    return { items, prunableTokens, estimatedSavedTokens };
  }
}
