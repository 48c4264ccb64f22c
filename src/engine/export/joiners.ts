// Where a zero-width joiner (U+200D) or non-joiner (U+200C) is part of the writing, not hidden in
// it: the page, the exports and the terminal mark every other zero-width character (a `⟨U+200D⟩`
// inside a word can make two names look the same), but marking these drew a badge inside every
// family, profession or flag emoji (👩‍💻 is 👩 U+200D 💻) and inside words of the scripts whose
// spelling needs them.
//
// - Emoji ZWJ sequences (Unicode TS #51, ED-16): a pictograph, optionally a variation selector
//   (U+FE0F) or a skin-tone modifier (U+1F3FB–U+1F3FF), U+200D, a pictograph.
// - Joiners between two letters or marks of one of the scripts that spell with them (The Unicode
//   Standard, 23.2 "Layout Controls": Persian and other Arabic-script orthographies write U+200C
//   inside words; the Indic scripts use U+200C/U+200D to choose conjunct and half forms). Ours:
//   the Arabic script and the ten Indic scripts below; Latin, Cyrillic and the rest are not in it,
//   so `ad\u200Dmin` stays marked.
// One look at each neighbour: linear in the text.

/**
 * The three classes, built on first use: a `\p{…}` class is expanded from Unicode's tables when
 * the pattern is parsed (about 1 ms for these three, a CPU profile of `compactlab inspect`), work
 * a command or a page that never meets a joiner should not pay at its start.
 */
let classes: { pictograph: RegExp; joiningScript: RegExp; letterOrMark: RegExp } | undefined;
function joinerClasses(): NonNullable<typeof classes> {
  classes ??= {
    pictograph: /\p{Extended_Pictographic}/u,
    joiningScript:
      /[\p{Script_Extensions=Arabic}\p{Script_Extensions=Devanagari}\p{Script_Extensions=Bengali}\p{Script_Extensions=Gurmukhi}\p{Script_Extensions=Gujarati}\p{Script_Extensions=Oriya}\p{Script_Extensions=Tamil}\p{Script_Extensions=Telugu}\p{Script_Extensions=Kannada}\p{Script_Extensions=Malayalam}\p{Script_Extensions=Sinhala}]/u,
    letterOrMark: /[\p{L}\p{M}]/u,
  };
  return classes;
}

/** The code point ending just before `at` (a surrogate pair read whole). */
function codePointBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text.slice(at - 1, at);
}

function codePointAt(text: string, at: number): string {
  const c = text.codePointAt(at);
  return c === undefined ? '' : String.fromCodePoint(c);
}

function isModifier(c: string): boolean {
  const code = c.codePointAt(0) ?? 0;
  return code === 0xfe0f || (code >= 0x1f3fb && code <= 0x1f3ff);
}

/** True when the joiner at `text[at]` (U+200C or U+200D) belongs to an emoji or a word's spelling. */
export function isWritingJoiner(text: string, at: number): boolean {
  const joiner = text.charCodeAt(at);
  if (joiner !== 0x200c && joiner !== 0x200d) return false;
  if (at === 0 || at + 1 >= text.length) return false;
  const { pictograph, joiningScript, letterOrMark } = joinerClasses();
  const after = codePointAt(text, at + 1);
  let before = codePointBefore(text, at);
  if (joiner === 0x200d) {
    let end = at;
    // At most two modifiers (a skin tone, then a variation selector): a bounded look back.
    for (let k = 0; k < 2 && end > 0 && isModifier(before); k++) {
      end -= before.length;
      before = end > 0 ? codePointBefore(text, end) : '';
    }
    if (pictograph.test(before) && pictograph.test(after)) return true;
    before = codePointBefore(text, at);
  }
  return (
    letterOrMark.test(before) &&
    letterOrMark.test(after) &&
    joiningScript.test(before) &&
    joiningScript.test(after)
  );
}
