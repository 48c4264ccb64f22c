import type { Block, Entry, TokenCount } from '../types';

// Claude Code's own local estimator (docs/sources.md#ccs-token-counting: gG = round(length / 4), lI2 = 2,000 per image, EQ0 applies ×4/3).

/** Characters per token in Claude Code's approximate counter (`gG`). */
export const CHARS_PER_TOKEN = 4;
/** Fixed estimate per image or document (`lI2`, v2.1.68 `eV8` (docs/sources.md#cc-microcompact)). */
export const TOKENS_PER_IMAGE: TokenCount = 2_000;
/** Safety multiplier applied by `EQ0` to a whole-message estimate (2.1.68 `wQ6`, session memory; the auto-compact count has none, docs/sources.md#cc-npm-constants). */
const SAFETY_MULTIPLIER = 4 / 3;

/** `gG`: Math.round(chars / 4). */
export function estimateTextTokens(chars: number): TokenCount {
  return Math.round(chars / CHARS_PER_TOKEN);
}

/** Estimate of one block as Claude Code counts it (before the safety multiplier). */
export function estimateBlockTokens(block: Block): TokenCount {
  switch (block.kind) {
    case 'text':
    case 'thinking':
      return estimateTextTokens(block.chars);
    case 'tool-result':
      return estimateTextTokens(block.chars) + block.images * TOKENS_PER_IMAGE;
    case 'image':
    case 'document':
      return TOKENS_PER_IMAGE;
    case 'tool-use':
      // EQ0's fallback: gG(JSON.stringify(block)); the JSON envelope adds ~40 chars to the input.
      return estimateTextTokens(block.inputChars + block.name.length + block.id.length + 40);
    case 'other':
      return estimateTextTokens(block.chars);
  }
}

/** Estimate of an entry's message content, before the ×4/3 safety multiplier. */
export function estimateEntryTokens(entry: Entry): TokenCount {
  let total = 0;
  for (const block of entry.blocks) total += estimateBlockTokens(block);
  return total;
}

/** `EQ0`: estimate with the safety multiplier, rounded up. */
export function estimateWithSafety(tokens: TokenCount): TokenCount {
  return Math.ceil(tokens * SAFETY_MULTIPLIER);
}
