// Transcript text made inert for what leaves the page as a file (the HTML report and transcript,
// the SVG charts, the Markdown exports): terminal control sequences and control characters are
// removed (an ESC would colour, move or retitle the terminal the file is printed in, and XML
// forbids C0 controls, so an SVG holding one does not open), and the characters that reorder or
// hide text without showing themselves (bidi embeddings, overrides, isolates and marks,
// zero-width characters; "Trojan Source", CVE-2021-42574) are shown as `⟨U+202E⟩`, as the page
// shows them (ui/common/visible-text.tsx). Linear in the text.

import { FORMAT_CHARS_CLASS } from './hidden-chars';
import { isWritingJoiner } from './joiners';

// CSI / OSC / other ESC sequences, then C0 and C1 controls but tab and newline; carriage returns too.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ESC is the point.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Bidi controls and marks, zero-width characters: the page's markers' set. */
const HIDDEN = new RegExp(`[${FORMAT_CHARS_CLASS}]`, 'g');

/** The text without terminal control sequences and control characters (tab and newline kept). */
export function stripControls(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ANSI, '').replace(CONTROL, '');
}

/**
 * `stripControls`, and each bidi or zero-width character shown as `⟨U+202E⟩`, but the joiners an
 * emoji or a word's spelling is made of (joiners.ts).
 */
export function makeInert(text: string): string {
  return stripControls(text).replace(HIDDEN, (c, at: number, whole: string) =>
    isWritingJoiner(whole, at) ? c : `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}
