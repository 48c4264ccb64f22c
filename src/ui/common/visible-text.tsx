import { Fragment, type ReactNode } from 'react';
import { FORMAT_CHARS_CLASS } from '../../engine/export/hidden-chars';
import { isWritingJoiner } from '../../engine/export/joiners';

/**
 * Characters that change how text around them reads without showing themselves: bidirectional
 * marks, embeddings, overrides and isolates (U+202E turns `txt.exe` into what looks like
 * `exe.txt`; "Trojan Source", CVE-2021-42574), zero-width characters that hide inside words, and
 * control characters (C0 but tab, newline and carriage return; DEL; C1), which a browser draws as
 * nothing: an ANSI escape's ESC, a NUL, U+009B (a one-character CSI) would vanish from the text
 * and ride along when it is copied into a terminal. The joiners an emoji or a word's spelling is
 * made of (👩‍💻, Persian words) are not marked (engine/export/joiners.ts).
 */
const HIDDEN_CLASS = `[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${FORMAT_CHARS_CLASS}]`;
const HIDDEN_ANY = new RegExp(HIDDEN_CLASS);
const HIDDEN = new RegExp(HIDDEN_CLASS, 'g');

const NAMES: Record<number, string> = {
  0: 'NULL',
  27: 'ESCAPE',
  127: 'DELETE',
  155: 'CONTROL SEQUENCE INTRODUCER',
  157: 'OPERATING SYSTEM COMMAND',
  1564: 'ARABIC LETTER MARK',
  8203: 'ZERO WIDTH SPACE',
  8204: 'ZERO WIDTH NON-JOINER',
  8205: 'ZERO WIDTH JOINER',
  8206: 'LEFT-TO-RIGHT MARK',
  8207: 'RIGHT-TO-LEFT MARK',
  8234: 'LEFT-TO-RIGHT EMBEDDING',
  8235: 'RIGHT-TO-LEFT EMBEDDING',
  8236: 'POP DIRECTIONAL FORMATTING',
  8237: 'LEFT-TO-RIGHT OVERRIDE',
  8238: 'RIGHT-TO-LEFT OVERRIDE',
  8288: 'WORD JOINER',
  8294: 'LEFT-TO-RIGHT ISOLATE',
  8295: 'RIGHT-TO-LEFT ISOLATE',
  8296: 'FIRST STRONG ISOLATE',
  8297: 'POP DIRECTIONAL ISOLATE',
  65279: 'ZERO WIDTH NO-BREAK SPACE',
};

/** Markers drawn as styled elements; past this many, as plain text (a 200 kB raw line stays cheap). */
const MAX_STYLED_MARKERS = 500;

const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
const marker = (c: string) => `⟨${codePoint(c)}⟩`;

/** True when `text` holds a character `VisibleText` would show as a marker. */
function hasHiddenChars(text: string): boolean {
  return HIDDEN_ANY.test(text);
}

/** The text with each hidden character replaced by a visible `⟨U+202E⟩` (for `title` tooltips). */
export function markHiddenChars(text: string): string {
  return text.replace(HIDDEN, (c, at: number) => (isWritingJoiner(text, at) ? c : marker(c)));
}

/**
 * Renders untrusted text as text, with bidi controls, zero-width and control characters shown as
 * styled `⟨U+202E⟩` markers instead of acting on the text around them.
 */
export function VisibleText({ text }: { text: string }): ReactNode {
  if (!hasHiddenChars(text)) return text;
  const parts: ReactNode[] = [];
  let last = 0;
  let styled = 0;
  for (const match of text.matchAll(HIDDEN)) {
    const at = match.index;
    if (isWritingJoiner(text, at)) continue;
    if (at > last) parts.push(text.slice(last, at));
    const c = match[0];
    if (styled < MAX_STYLED_MARKERS) {
      styled++;
      const name = NAMES[c.charCodeAt(0)];
      parts.push(
        <span key={at} className="hidden-char" title={name ? `${codePoint(c)} ${name}` : codePoint(c)}>
          {marker(c)}
        </span>,
      );
    } else parts.push(marker(c));
    last = at + c.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <Fragment>{parts}</Fragment>;
}
