// One way to number things for people, used by the cards, the replay strip, the Summaries dock,
// the CLI and tooltips: 1-based ordinals ("API call 12 of 340", "compaction 2 of 3").
// Data (JSON output, query keys, `api-call:N` points) keeps 0-based indices named `…Index`.

import { groupDigits } from './format';

/** What is numbered; the noun each gets in text. */
type NumberedKind = 'api-call' | 'compaction' | 'replay-event' | 'entry';

const NOUNS: Record<NumberedKind, string> = {
  'api-call': 'API call',
  compaction: 'compaction',
  'replay-event': 'replay event',
  // An entry of the session (a line's record, in load order): `compactlab replay --pivot M`.
  entry: 'entry',
};

/** `index` 0-based → "API call 12" or, with `total`, "API call 12 of 340". */
export function formatOrdinal(kind: NumberedKind, index: number, total?: number): string {
  const n = groupDigits(index + 1);
  const of = total === undefined ? '' : ` of ${groupDigits(total)}`;
  return `${NOUNS[kind]} ${n}${of}`;
}

/** Same, capitalised for a title or a line start: "Compaction 2 of 3". */
export function formatOrdinalTitle(kind: NumberedKind, index: number, total?: number): string {
  const text = formatOrdinal(kind, index, total);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "1 compaction", "2 compactions", "1,234 entries". `plural` defaults to `noun` + "s". */
export function formatPlural(n: number, noun: string, plural = `${noun}s`): string {
  return `${groupDigits(n)} ${n === 1 ? noun : plural}`;
}
