import type { TokenCount } from '../../types';
import type { MicrocompactVariant } from './knobs';

// Which tool results Claude Code's microcompact clears (no LLM), on a plain list of the eligible,
// not yet cleared items of the current history, oldest first in call order (the order of the
// tool_use blocks: parallel calls' results may come back in another order, and the 2.1.19
// boundaries in the corpus count in call order). The replay's strategy uses an
// incremental version of the same rules (claude-code.ts); the naive reference (tests/replay/reference/claude-code.ts) and the unit tests use
// this one.
//
// v2.1.68 `Rg` (docs/sources.md#cc-microcompact) (docs/sources.md#cc-microcompact): the last F3Y results are
// always kept; scanning back from the newest, results are protected while their running total
// stays within g3Y tokens; the result that crosses it and everything older may be cleared, if
// that frees at least B3Y tokens (`@anthropic-ai/claude-code@2.1.68:cli.js (if(!Yl(j,J).isAboveWarningThreshold||O<B3Y)H.clear())`). (The crossing result is cleared: the 2.1.19 boundaries in the
// corpus clear exactly that set, e.g. 35,393 protected + 4,609 cleared.)
//
// legacy `Si` (docs/sources.md#ccs-microcompact): oldest first, every
// result but the last cD5 is cleared while the results' total minus what is already saved stays
// above the threshold (dD5); nothing happens when the savings stay under mD5.

interface MicrocompactParams {
  variant: MicrocompactVariant;
  keepRecent: number;
  /** v2.1.68: tokens of recent results protected (g3Y); legacy: the threshold (dD5). */
  protectTokens: TokenCount;
  minSavings: TokenCount;
}

interface MicrocompactSelection {
  /** Indices into the input list. */
  clear: number[];
  /** Claude Code's estimate of the savings. */
  savings: TokenCount;
}

/** Items to clear, or undefined when microcompact would do nothing. */
export function selectMicrocompact(
  estimates: readonly TokenCount[],
  params: MicrocompactParams,
): MicrocompactSelection | undefined {
  const pick = inspectMicrocompact(estimates, params);
  return pick.passes ? { clear: pick.clear, savings: pick.savings } : undefined;
}

/**
 * What microcompact would clear and save, whether or not the savings pass the minimum (learn
 * mode's attempt step shows a microcompact that did not act). `selectMicrocompact` acts on it.
 */
export function inspectMicrocompact(
  estimates: readonly TokenCount[],
  params: MicrocompactParams,
): MicrocompactSelection & { passes: boolean } {
  const n = estimates.length;
  const keepFrom = Math.max(0, n - params.keepRecent);
  const clear: number[] = [];
  let savings = 0;
  if (params.variant === 'v2.1.68') {
    let protectedTokens = 0;
    let cut = -1;
    for (let i = n - 1; i >= 0; i--) {
      protectedTokens += estimates[i]!;
      if (i >= keepFrom) continue;
      if (protectedTokens > params.protectTokens) {
        cut = i;
        break;
      }
    }
    for (let i = 0; i <= cut; i++) {
      clear.push(i);
      savings += estimates[i]!;
    }
    // Acts at B3Y exactly: cli.js clears nothing only while the savings are below it (`O<B3Y`).
    return { clear, savings, passes: savings >= params.minSavings };
  }
  let total = 0;
  for (const t of estimates) total += t;
  for (let i = 0; i < keepFrom; i++) {
    if (total - savings > params.protectTokens) {
      clear.push(i);
      savings += estimates[i]!;
    }
  }
  return { clear, savings, passes: savings >= params.minSavings };
}
