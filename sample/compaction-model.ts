// When the generated session compacts: the replay model's own rules (docs/replay-accuracy.md),
// so that replaying a generated log at its own knobs reproduces its compactions call for call.
//   - knobs: `getClaudeCodeSessionKnobs` for the version written on every record;
//   - auto-compaction after a call when usage + output + Claude Code's estimate of what followed
//     the response's first line (replay/prepare.ts `pendingEstimate`) reaches the threshold;
//   - otherwise microcompact when usage + output reaches the warning threshold and `Rg` frees
//     more than the minimum (strategies/claude-code-microcompact.ts), counted in call order.
// Estimates mirror the parser (parse/dialects/claude-code.ts) and `tokens/estimate.ts`.

import type { ClaudeCodeKnobs } from '../src/engine/strategies/claude-code/knobs';
import { getClaudeCodeSessionKnobs } from '../src/engine/strategies/claude-code/session-knobs';
import { selectMicrocompact } from '../src/engine/strategies/claude-code/microcompact';
import { computeThresholds, type Thresholds } from '../src/engine/thresholds';
import { estimateTextTokens, TOKENS_PER_IMAGE } from '../src/engine/tokens/estimate';
import type { TokenCount } from '../src/engine/types';
import type { JsonObject } from './transcript-writer';

/** The knobs and thresholds the replay derives for a log of `version` on `model`. */
export interface CompactionModel {
  knobs: ClaudeCodeKnobs;
  thresholds: Thresholds;
  eligibleTools: ReadonlySet<string>;
}

/**
 * The replay's knobs for a generated log. `microcompactions` is what the log will contain: a
 * version outside 2.1.9–2.1.19 turns microcompact on only when the log has a boundary.
 */
export function createCompactionModel(
  version: string,
  model: string,
  microcompact: boolean,
): CompactionModel {
  const { knobs } = getClaudeCodeSessionKnobs({
    versions: [version],
    models: [model],
    isSubagent: false,
    // A generated log always auto-compacts when it crosses the threshold: auto-compact is on.
    autoCompactions: 1,
    microcompactions: microcompact ? 1 : 0,
    // Its microcompaction fires alone at the warning threshold (below): the knobs say so.
    microcompactsAlone: microcompact ? 1 : 0,
    continuedPeakTokens: 0,
  });
  if (!microcompact) knobs.microcompactEnabled = false;
  return {
    knobs,
    thresholds: computeThresholds(knobs),
    eligibleTools: new Set(knobs.microcompactTools),
  };
}

/** Claude Code's estimate of one content block as the parser sees it (`estimateBlockTokens`). */
function estimateRawBlock(block: JsonObject): TokenCount {
  switch (block.type) {
    case 'text':
      return estimateTextTokens(typeof block.text === 'string' ? block.text.length : 0);
    case 'thinking':
      return estimateTextTokens(typeof block.thinking === 'string' ? block.thinking.length : 0);
    case 'tool_use': {
      const inputChars = (JSON.stringify(block.input ?? {}) ?? '').length;
      return estimateTextTokens(inputChars + String(block.name).length + String(block.id).length + 40);
    }
    case 'tool_result': {
      const content = block.content;
      if (typeof content === 'string') return estimateTextTokens(content.length);
      let chars = 0;
      let images = 0;
      for (const part of Array.isArray(content) ? (content as JsonObject[]) : []) {
        if (part.type === 'text' && typeof part.text === 'string') chars += part.text.length;
        else if (part.type === 'image' || part.type === 'document') images++;
      }
      return estimateTextTokens(chars) + images * TOKENS_PER_IMAGE;
    }
    case 'image':
    case 'document':
      return TOKENS_PER_IMAGE;
    default:
      return estimateTextTokens((JSON.stringify(block) ?? '').length);
  }
}

/** Estimate of a message's content (`estimateEntryTokens`), before the safety multiplier. */
export function estimateContentTokens(content: string | JsonObject[]): TokenCount {
  if (typeof content === 'string') return estimateTextTokens(content.length);
  let total = 0;
  for (const block of content) total += estimateRawBlock(block);
  return total;
}

/** A tool result (or pasted image) microcompact may clear, in call order. */
export interface ClearableItem {
  /** tool_use id, or `<entry uuid>:image:<n>` as the replay names images (replay/prepare.ts). */
  id: string;
  estimate: TokenCount;
  /** What it really weighs in the request (the generator's tokenizer). */
  tokens: number;
  /** Context size when it was added: the cache prefix before it. */
  offset: number;
}

/** v2.1.68 `Rg` (docs/sources.md#cc-microcompact) over the live items, oldest first; undefined when microcompact would do nothing. */
export function selectClearable(
  model: CompactionModel,
  live: readonly ClearableItem[],
): { items: ClearableItem[]; savings: TokenCount } | undefined {
  const k = model.knobs;
  const selection = selectMicrocompact(
    live.map((item) => item.estimate),
    {
      variant: k.microcompactVariant,
      keepRecent: k.microcompactKeepRecent,
      protectTokens: k.microcompactProtectTokens,
      minSavings: k.microcompactMinSavings,
    },
  );
  if (!selection) return undefined;
  return { items: selection.clear.map((i) => live[i] as ClearableItem), savings: selection.savings };
}
