import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeJsonText, escapeTerminalText } from '../../src/cli/terminal-text';
import { makeInert } from '../../src/engine/export/inert-text';
import { isWritingJoiner } from '../../src/engine/export/joiners';
import { markHiddenChars } from '../../src/ui/common/visible-text';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// The joiners an emoji or a word is made of are left alone by every view of transcript text (the
// page's markers, the exports, the terminal); every other zero-width character stays marked.

const ZWJ = '\u200d';
const ZWNJ = '\u200c';
const TECHNOLOGIST = `👩${ZWJ}💻`;
const FAMILY = `👨${ZWJ}👩${ZWJ}👧`;
const EYE = `👁\ufe0f${ZWJ}🗨\ufe0f`;
const TONED = `👩🏽${ZWJ}🚀`;
/** Persian "می‌خواهم" (I want): its spelling writes U+200C after the prefix. */
const PERSIAN = `می${ZWNJ}خواهم`;
/** Devanagari क्‍ष: a half form chosen with U+200D after the virama. */
const DEVANAGARI = `क्${ZWJ}ष`;

const views: [string, (text: string) => string][] = [
  ['the page (markHiddenChars)', markHiddenChars],
  ['exports (makeInert)', makeInert],
  ['the terminal (escapeTerminalText)', escapeTerminalText],
  ['JSON on a terminal (escapeJsonText)', escapeJsonText],
];

describe('joiners that are part of the writing', () => {
  it.each(views)(
    '%s keeps emoji ZWJ sequences and the joiners of Persian and Devanagari words',
    (_, view) => {
      for (const text of [TECHNOLOGIST, FAMILY, EYE, TONED, PERSIAN, DEVANAGARI])
        expect(view(`a ${text} b`)).toBe(`a ${text} b`);
    },
  );

  it.each(views)(
    '%s still marks a joiner hidden in a Latin word, at an edge or beside one pictograph',
    (_, view) => {
      for (const text of [
        `ad${ZWJ}min`,
        `ad${ZWNJ}min`,
        `${ZWJ}👩`,
        `👩${ZWJ}`,
        `👩${ZWJ}x`,
        `x${ZWJ}💻`,
        `1${ZWJ}2`,
      ])
        expect(view(text), JSON.stringify(text)).not.toBe(text);
    },
  );

  it('still marks the other zero-width characters inside an emoji sequence', () => {
    expect(makeInert(`👩\u200b💻`)).toBe('👩⟨U+200B⟩💻');
    expect(markHiddenChars(`👩\u2060💻`)).toBe('👩⟨U+2060⟩💻');
  });

  it('is linear on a megabyte of joiners and modifiers', () => {
    const hostile = `👩${'\ufe0f\u{1f3fd}\u200d'.repeat(200_000)}`;
    const started = performance.now();
    const out = makeInert(hostile);
    // Each joiner follows two modifiers, so none follows a pictograph within the bounded look-back.
    expect(out.match(/⟨U\+200D⟩/g)).toHaveLength(200_000);
    expect(isWritingJoiner(hostile, 1)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe.runIf(corpusOrSkip('joiners in real transcripts'))('joiners in real transcripts', () => {
  // Two real logs hold emoji ZWJ sequences (an eye in a speech bubble; a family): a plain count of
  // U+200D in their decoded strings is what every view keeps.
  const files = [
    'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
    'aistrad__work/claude__projects__-home-aiscend-work-vibelife__agent-af39e30.jsonl',
  ];
  it.each(files)('%s: every U+200D sits in an emoji and none is marked', (file) => {
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    for (const line of readFileSync(join(CORPUS, file), 'utf8').split('\n'))
      if (line.includes('200d') || line.includes(ZWJ)) walk(JSON.parse(line));
    const joined = strings.filter((s) => s.includes(ZWJ));
    const count = joined.reduce((n, s) => n + s.split(ZWJ).length - 1, 0);
    expect(count).toBeGreaterThan(0);
    for (const [, view] of views) {
      const shown = joined.map(view).join('\n');
      expect(shown.split(ZWJ).length - 1).toBe(count);
      expect(shown).not.toMatch(/⟨U\+200D⟩|\\u200d/);
    }
  });
});
