// The one list of the characters that reorder or hide text without showing themselves, which the
// page (ui/common/visible-text.tsx), the files it writes (inert-text.ts) and the terminal
// (cli/terminal-text.ts) all show as markers or escapes: the Arabic letter mark (U+061C), the
// zero-width space, non-joiner and joiner and the left-to-right and right-to-left marks
// (U+200B–U+200F), the bidi embeddings and overrides (U+202A–U+202E; "Trojan Source",
// CVE-2021-42574), the word joiner and invisible operators (U+2060–U+2064), the bidi isolates
// (U+2066–U+2069) and the zero-width no-break space (U+FEFF). Each place adds the control
// characters its own output cannot carry.

/** The characters, as the inside of a regular expression's character class. */
export const FORMAT_CHARS_CLASS =
  '\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';
