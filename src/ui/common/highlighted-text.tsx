import { Fragment, type ReactNode } from 'react';
import { VisibleText } from './visible-text';

/** Marks drawn per text; past this many the rest of the text is plain (a long preview stays cheap). */
const MAX_MARKS = 50;

/**
 * Where `needle` occurs in `text`, ignoring case, as [start, end) pairs (at most `MAX_MARKS`).
 * Case folding that changes a string's length (`İ` → `i̇`) would shift the offsets: such a text
 * gets no marks rather than wrong ones.
 */
export function findHits(text: string, needle: string): [number, number][] {
  const n = needle.trim().toLowerCase();
  if (n === '') return [];
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return [];
  const hits: [number, number][] = [];
  for (let at = lower.indexOf(n); at >= 0 && hits.length < MAX_MARKS; at = lower.indexOf(n, at + n.length))
    hits.push([at, at + n.length]);
  return hits;
}

/**
 * Untrusted text (shown as `VisibleText` shows it) with each occurrence of the search marked, so a
 * filtered row says why it matched.
 */
export function HighlightedText({ text, search }: { text: string; search: string }): ReactNode {
  const hits = findHits(text, search);
  if (hits.length === 0) return <VisibleText text={text} />;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const [start, end] of hits) {
    if (start > last) parts.push(<VisibleText key={`t${last}`} text={text.slice(last, start)} />);
    parts.push(
      <mark key={`m${start}`} className="search-hit" data-testid="search-hit">
        <VisibleText text={text.slice(start, end)} />
      </mark>,
    );
    last = end;
  }
  if (last < text.length) parts.push(<VisibleText key={`t${last}`} text={text.slice(last)} />);
  return <Fragment>{parts}</Fragment>;
}
