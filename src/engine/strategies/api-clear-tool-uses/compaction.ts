import type { Restoration } from '../../compact/restore';
import type { TokenCount } from '../../types';
import type { ReplayView, StrategyAction } from '../types';

// The API's server-side compaction, the `compact_20260112` edit (beta `compact-2026-01-12`;
// docs/sources.md#api-compaction, platform.claude.com "Compaction"): when a request's input reaches
// `trigger.input_tokens` (default 150,000, at least 50,000), the API first summarizes the whole
// conversation into a compaction block, then answers from it; later requests drop everything
// before that block. `instructions` replace the default summary prompt (state, next steps,
// learnings, in `<summary>`); `pause_after_compaction` ends the response right after the block
// (`stop_reason: "compaction"`) so the client can add to it before it continues. No file is
// re-attached; the block is the summary itself.

/** `trigger.input_tokens` default. */
export const API_COMPACTION_DEFAULT_TRIGGER: TokenCount = 150_000;
/** The smallest trigger the API accepts. */
export const API_COMPACTION_MIN_TRIGGER: TokenCount = 50_000;

interface ApiCompactionKnobs {
  triggerTokens: TokenCount;
  instructions?: string;
  pauseAfterCompaction: boolean;
}

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

/** The note a `pause_after_compaction` compaction carries. */
export const PAUSE_NOTE =
  'pause_after_compaction: the response stops after the compaction block (stop_reason "compaction"); the client sends the next request itself';

/**
 * The compaction of the request after `view`'s call, whose input (after the edits listed before
 * it) is `inputTokens`; `manual` for one the user asks for.
 */
export function createApiCompaction(
  view: ReplayView,
  knobs: ApiCompactionKnobs,
  inputTokens: TokenCount,
  trigger: 'auto' | 'manual',
  earlierEdits: string | undefined,
): StrategyAction {
  const notes = [
    trigger === 'auto'
      ? `input ${inputTokens.toLocaleString('en-US')}${earlierEdits ? ` after ${earlierEdits}` : ''} reached the compact_20260112 trigger: the compaction block replaces everything before it`
      : 'compaction asked for: the compaction block replaces everything before it',
  ];
  if (knobs.instructions) notes.push('custom instructions replace the default summary prompt');
  if (knobs.pauseAfterCompaction) notes.push(PAUSE_NOTE);
  return {
    kind: 'summarize',
    mechanism: 'full',
    trigger,
    checkTokens: inputTokens,
    thresholdTokens: knobs.triggerTokens,
    restoration: NO_RESTORATION,
    continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
    // The compaction block is the summary: no continuation message around it.
    summaryOverheadTokens: 0,
    requestVariant: 'full',
    customInstructions: view.manual?.customInstructions ?? knobs.instructions,
    note: notes.join('; '),
  };
}
