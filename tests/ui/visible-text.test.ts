import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { markHiddenChars, VisibleText } from '../../src/ui/common/visible-text';

const render = (text: string) => renderToStaticMarkup(createElement(VisibleText, { text }));
const HIDDEN = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

describe('VisibleText', () => {
  it('leaves ordinary text alone, RTL scripts included', () => {
    expect(render('plain <b>text</b> שלום مرحبا 日本')).toBe('plain &lt;b&gt;text&lt;/b&gt; שלום مرحبا 日本');
  });

  it('shows bidi overrides, isolates and zero-width characters as styled markers', () => {
    const html = render('invoice\u202Egpj.exe a\u200Bb \u2066x\u2069 \uFEFF');
    expect(html).not.toMatch(HIDDEN);
    expect(html).toContain(
      'invoice<span class="hidden-char" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>gpj.exe',
    );
    expect(html).toContain('a<span class="hidden-char" title="U+200B ZERO WIDTH SPACE">⟨U+200B⟩</span>b');
    expect(html.match(/class="hidden-char"/g)).toHaveLength(5);
  });

  it('shows control characters as markers too (a browser draws ESC, NUL or U+009B as nothing), not tab or line ends', () => {
    const html = render('a\u001b[31mred\u001b]0;t\u0007 \u0000\u009b1m\u007f\tb\r\nc');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point.
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    expect(html).toContain('a<span class="hidden-char" title="U+001B ESCAPE">⟨U+001B⟩</span>[31mred');
    expect(html).toContain('⟨U+0000⟩');
    expect(html).toContain('⟨U+009B⟩');
    expect(html).toContain('>⟨U+007F⟩</span>\tb\r\nc');
    expect(markHiddenChars('x\u001by')).toBe('x⟨U+001B⟩y');
  });

  it('stops styling after 500 markers but still shows every one', () => {
    const html = render('\u200B'.repeat(600));
    expect(html.match(/class="hidden-char"/g)).toHaveLength(500);
    expect(html.match(/⟨U\+200B⟩/g)).toHaveLength(600);
    expect(html).not.toMatch(HIDDEN);
  });

  it('marks hidden characters in plain strings for tooltips', () => {
    expect(markHiddenChars('main\u202Etxt.exe')).toBe('main⟨U+202E⟩txt.exe');
    expect(markHiddenChars('clean')).toBe('clean');
  });
});
