import type { Block } from '../types';

// What a thinking block whose text is absent is, said the same in the transcript's rows, the
// detail panel and the CLI's dumps: a redacted block is not one whose text the log did not keep.

type Hidden = NonNullable<Extract<Block, { kind: 'thinking' }>['hidden']>;

/** A short name: the row's `(…)`, the detail's badge. */
export const HIDDEN_THINKING_LABELS: Record<Hidden, string> = {
  redacted: 'redacted thinking',
  'not-kept': 'thinking, its text not kept in the log',
  encrypted: 'encrypted reasoning',
};

/** One sentence for the detail panel. */
export const HIDDEN_THINKING_NOTES: Record<Hidden, string> = {
  redacted: 'Redacted by the provider (a redacted_thinking block): the reasoning is sent back encrypted.',
  'not-kept':
    'The log keeps this thinking block’s signature, not its text (Claude Code 2.1.x writes it empty).',
  encrypted: 'Reasoning held encrypted only: the log has no readable summary of it.',
};

/** The dumps' token: `thinking(redacted)`, `thinking(text not kept)`, `thinking(encrypted 1234)`. */
export function formatHiddenThinkingToken(hidden: Hidden, chars: number): string {
  return hidden === 'redacted'
    ? 'thinking(redacted)'
    : hidden === 'not-kept'
      ? 'thinking(text not kept)'
      : `thinking(encrypted ${chars})`;
}
