/**
 * Characters that would drive a terminal or reorder what it shows: C0 controls other than tab
 * and newline (ESC starts ANSI sequences: colours, cursor moves, OSC title changes), DEL, C1
 * controls (U+009B is a one-character CSI), and the bidirectional embeddings, overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069) that reverse the text after them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point.
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same outside the C0 range, which JSON.stringify already escapes. */
const JSON_UNESCAPED_CONTROLS = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, digits: number) => c.charCodeAt(0).toString(16).padStart(digits, '0');

/** Shows control characters as escapes (`\x1b`, `\u202e`) so transcript text prints inert. */
export function escapeTerminalText(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (c) =>
    c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`,
  );
}

/** Escapes the controls JSON.stringify leaves raw; the result parses to the same value. */
export function escapeJsonText(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROLS, (c) => `\\u${hex(c, 4)}`);
}
