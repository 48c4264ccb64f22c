import { FORMAT_CHARS_CLASS } from '../engine/export/hidden-chars';
import { isWritingJoiner } from '../engine/export/joiners';

/**
 * Characters that would drive a terminal or change what it shows without showing themselves: C0
 * controls other than tab and newline (ESC starts ANSI sequences: colours, cursor moves, OSC title
 * changes, hyperlinks, clipboard writes), DEL, C1 controls (U+009B is a one-character CSI), the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reverse the
 * text after them, and, as the page marks them (ui/common/visible-text.tsx), the bidi marks
 * (U+061C, U+200E, U+200F) and zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF) that
 * hide inside a word: a command read off the terminal is the command that ran. The joiners an emoji
 * or a word's spelling is made of stay as they are (engine/export/joiners.ts).
 */
const TERMINAL_CONTROLS = new RegExp(
  `[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${FORMAT_CHARS_CLASS}]`,
  'g',
);
/** The same outside the C0 range, which JSON.stringify already escapes. */
const JSON_UNESCAPED_CONTROLS = new RegExp(`[\\u007f-\\u009f${FORMAT_CHARS_CLASS}]`, 'g');

const hex = (c: string, digits: number) => c.charCodeAt(0).toString(16).padStart(digits, '0');

/**
 * Shows control characters as escapes (`\x1b`, `\u009b`, `\u202e`) so transcript text prints
 * inert. Past C0 the escape is `\u`: JSON written to a terminal without `--json` (stats' NDJSON,
 * its default) stays JSON, since JSON.stringify leaves DEL, C1 and bidi characters raw and `\x9b`
 * is no JSON escape.
 */
export function escapeTerminalText(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (c, at: number) =>
    isWritingJoiner(text, at) ? c : c.charCodeAt(0) < 0x20 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`,
  );
}

/** Escapes the controls JSON.stringify leaves raw; the result parses to the same value. */
export function escapeJsonText(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROLS, (c, at: number) =>
    isWritingJoiner(json, at) ? c : `\\u${hex(c, 4)}`,
  );
}
