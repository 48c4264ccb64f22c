import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/engine/export/markdown-lite';
import { formatTranscriptHtml, formatTranscriptMarkdown } from '../../src/engine/export/transcript-export';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeConversation } from '../../src/engine/query/conversation';

// The transcript exports (issue 24 item 9) on hostile content: <script>, <img onerror>,
// javascript: links, remote images, ANSI and OSC escapes, and a tool result longer than the
// parser's previews (written whole).

const XSS = readFileSync(resolve(__dirname, '../fixtures/xss.jsonl'), 'utf8');
const ESC = '\u001b';
const LONG = `${'0123456789'.repeat(600)}END-OF-LONG-RESULT`;

function hostileSession(): string {
  const base = { sessionId: 's1', cwd: '/w', version: '2.1.68', isSidechain: false, userType: 'external' };
  const usage = {
    input_tokens: 3,
    cache_creation_input_tokens: 10,
    cache_read_input_tokens: 100,
    output_tokens: 5,
  };
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2026-03-09T10:00:00.000Z',
      message: {
        role: 'user',
        content: `# Title\nText with <script>alert(1)</script> and <img src=x onerror="alert(1)">.\n[bad](javascript:alert(1)) [good](https://example.com/a) ![pixel](https://tracker.example/p.png)\n${ESC}[31mred${ESC}[0m ${ESC}]0;owned title${ESC}\\ done`,
      },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: '2026-03-09T10:00:01.000Z',
      message: {
        id: 'msg_1',
        model: 'claude-opus-4-6',
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running it:\n```\n</pre><script>alert(2)</script>\n```' },
          {
            type: 'tool_use',
            id: 'tu1',
            name: 'Bash',
            input: { command: `echo "<script>alert(3)</script>" ${ESC}[2J` },
          },
        ],
        usage,
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'r1',
      parentUuid: 'a1',
      timestamp: '2026-03-09T10:00:02.000Z',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'tu1',
            content: `${ESC}[1m<b>bold</b>${ESC}[0m \`\`\`\`\n${LONG}`,
          },
        ],
      },
    },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

const ALLOWED_TAGS = new Set(
  'html head meta title style body h1 h2 p section details summary strong pre code em span a ul ol li blockquote hr'.split(
    ' ',
  ),
);

async function exportsOf(text: string, previewChars = Number.MAX_SAFE_INTEGER) {
  const session = await parseSession([createMemorySource('hostile.jsonl', text)], { previewChars });
  const turns = computeConversation(session);
  const header = { name: 'hostile <b>.jsonl', agent: session.meta.agent, models: session.meta.models };
  return { turns, html: formatTranscriptHtml(header, turns), md: formatTranscriptMarkdown(header, turns) };
}

describe('transcript export', () => {
  for (const [name, text] of [
    ['hostile', hostileSession()],
    ['xss fixture', XSS],
  ] as const) {
    it(`${name}: the HTML has only its own elements, no script, no handler, no unsafe link, no escape`, async () => {
      const { html } = await exportsOf(text);
      for (const m of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g))
        expect(ALLOWED_TAGS).toContain(m[1]!.toLowerCase());
      expect(html).not.toMatch(/<script|<img|<iframe|<svg/i);
      // No attribute but ours: class, href (http/https/mailto), rel, lang, charset, meta's.
      for (const m of html.matchAll(/<[a-z0-9]+\s([^>]*)>/g))
        for (const attr of m[1]!.replace(/"[^"]*"/g, '""').matchAll(/([a-zA-Z-]+)=/g))
          expect(['class', 'href', 'rel', 'lang', 'charset', 'http-equiv', 'content', 'name']).toContain(
            attr[1],
          );
      for (const m of html.matchAll(/href="([^"]*)"/g)) expect(m[1]).toMatch(/^(https?:\/\/|mailto:)/);
      expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
      expect(html).not.toContain(ESC);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding controls is the point.
      expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    });

    it(`${name}: the Markdown passes no raw HTML and no escape`, async () => {
      const { md } = await exportsOf(text);
      // Outside fences, no `<` at all; inside fences it is code.
      const prose = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
      expect(prose).not.toContain('<');
      expect(md).not.toContain(ESC);
    });
  }

  it('writes whole texts, each tool call with its result under it', async () => {
    const { turns, html, md } = await exportsOf(hostileSession());
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(turns[1]!.tools).toHaveLength(1);
    expect(turns[1]!.tools[0]!.result).toContain('END-OF-LONG-RESULT');
    expect(html).toContain('END-OF-LONG-RESULT');
    expect(md).toContain('END-OF-LONG-RESULT');
    // The javascript: link is text; the https one a link; the image its alt text, never loaded.
    expect(html).toContain('bad (javascript:alert(1))');
    expect(html).toContain('<a href="https://example.com/a" rel="noopener noreferrer nofollow">good</a>');
    expect(html).toContain('[image: pixel]');
    expect(html).not.toContain('tracker.example');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The result's four backticks sit inside a five-backtick fence.
    expect(md).toContain('`````\n');
    // The tool result follows its call in the HTML, inside the same <details>.
    const call = html.indexOf('<details class="tool">');
    expect(html.indexOf('END-OF-LONG-RESULT')).toBeGreaterThan(call);
    expect(html.indexOf('</details>', call)).toBeGreaterThan(html.indexOf('END-OF-LONG-RESULT'));
  });

  it('keeps a result whose call is not in the log', async () => {
    const lines = hostileSession().split('\n');
    // The call's line gone: its result stays, where it was.
    const { turns, html } = await exportsOf([lines[0], lines[2]].join('\n'));
    expect(turns.map((t) => t.role)).toEqual(['user', 'user']);
    expect(turns[1]!.tools[0]!.name).toBe('(a call not in this log)');
    expect(html).toContain('END-OF-LONG-RESULT');
  });

  it('says how much a preview left out when the texts are previews', async () => {
    const { md } = await exportsOf(hostileSession(), 2_000);
    expect(md).not.toContain('END-OF-LONG-RESULT');
    expect(md).toMatch(/more characters not shown/);
  });

  it('markdown-lite keeps raw HTML as text and reads the usual blocks', () => {
    const blocks = parseMarkdown('# H\n\n- a\n- b\n\n1. x\n\n> q\n\n```ts\n<b>\n```\n\n---\n<b>x</b>');
    expect(blocks.map((b) => b.t)).toEqual(['h', 'list', 'list', 'quote', 'code', 'hr', 'p']);
    expect(blocks[6]).toEqual({ t: 'p', inl: [{ t: 'text', s: '<b>x</b>' }] });
  });
});
