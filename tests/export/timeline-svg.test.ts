import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/engine/export/escape-html';
import { renderTimelineSvg } from '../../src/engine/export/timeline-svg';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeTimelineSeries } from '../../src/engine/query/timeline-series';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');

describe('escapeHtml', () => {
  it('leaves no markup and no way out of a quoted attribute', () => {
    const text = `<script>x</script><img src=x onerror="a('1')"> & done`;
    expect(escapeHtml(text)).toBe(
      '&lt;script&gt;x&lt;/script&gt;&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt; &amp; done',
    );
  });
});

describe('renderTimelineSvg', () => {
  it('draws the series, one marker per main compaction and each threshold', async () => {
    const session = await parseSession([createMemorySource('tiny.jsonl', fixture('tiny.jsonl'))]);
    const series = computeTimelineSeries(session);
    const svg = renderTimelineSvg(series, {
      title: 'a <b> title',
      thresholds: [
        { label: 'Auto-compact', tokens: 167_000, kind: 'trigger' },
        { label: 'Blocking', tokens: 197_000, kind: 'limit' },
      ],
    });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.match(/<polyline class="context"/g)).toHaveLength(1);
    const points = /class="context"[^>]*points="([^"]*)"/.exec(svg)![1]!.split(' ');
    expect(points).toHaveLength(series.contextTokens.length);
    expect(svg.match(/<g class="marker"/g)).toHaveLength(series.markers.length);
    expect(svg.match(/<g class="threshold"/g)).toHaveLength(2);
    // Each threshold's label stands right of the plot, where no line of it runs (the context's,
    // the markers', the thresholds' own end at the plot's edge), drawn last.
    const labels = [...svg.matchAll(/<text class="threshold-label"[^>]*x="([\d.]+)"[^>]*>([^<]*)<\/text>/g)];
    expect(labels.map((m) => m[2])).toEqual(['Blocking 197k', 'Auto-compact 167k']);
    const plotRight = Math.max(...[...svg.matchAll(/x2="([\d.]+)"/g)].map((m) => Number(m[1])));
    const contextXs = points.map((p) => Number(p.split(',')[0]));
    for (const [, x] of labels) {
      expect(Number(x)).toBeGreaterThan(plotRight);
      expect(Number(x)).toBeGreaterThan(Math.max(...contextXs));
    }
    expect(svg.indexOf('class="threshold-label"')).toBeGreaterThan(svg.lastIndexOf('<polyline'));
    expect(svg).toContain('<title>a &lt;b&gt; title</title>');
    // The title is drawn too, and the legend says what each line and letter is.
    expect(svg).toContain('font-weight="bold" fill="#111827">a &lt;b&gt; title</text>');
    expect(svg).toContain('<g class="legend">');
    expect(svg).toContain('A auto · M manual · µ microcompact · T truncation');
    expect(svg).not.toContain('<b>');
  });

  it("marks a Cline truncation T and its summary compaction A, as the page's timeline does", async () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'cline-task');
    const names = ['api_conversation_history.json', 'ui_messages.json', 'task_metadata.json'];
    const session = await parseSession(
      names.map((n) => createMemorySource(n, readFileSync(join(dir, n), 'utf8'))),
    );
    const svg = renderTimelineSvg(computeTimelineSeries(session));
    const letters = [...svg.matchAll(/<g class="marker" data-kind="(\w+)">.*\n<text[^>]*>(.)<\/text>/g)].map(
      (m) => `${m[1]}:${m[2]}`,
    );
    expect(letters).toEqual(['truncate:T', 'compact:A']);
  });

  it("draws a folder session's long title within the picture, its file name kept, and keeps it whole in <title>", async () => {
    const session = await parseSession([createMemorySource('tiny.jsonl', fixture('tiny.jsonl'))]);
    const series = computeTimelineSeries(session);
    const drawn = (title: string) => {
      const svg = renderTimelineSvg(series, { title });
      expect(svg).toContain(`<title>${escapeHtml(title)}</title>`);
      return /<text class="title"[^>]*>([^<]*)<\/text>/.exec(svg)![1]!;
    };
    // The report's title of a corpus session opened from a folder (1,204 px drawn in 960).
    const path =
      'explorer-tree/LAF-US__IDAHO-VAULT/.claude/projects/c--Users-~-Documents-IDAHO-VAULT/05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl';
    expect(drawn(`Context timeline of ${path}`)).toBe(
      'Context timeline of …/05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
    );
    expect(drawn(`Context timeline of ${path}, replayed under Claude Code (claude-code)`)).toBe(
      'Context timeline of …/05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl, replayed under Claude Code (claude-code)',
    );
    // A title that fits is left alone, its path too.
    expect(drawn('Context timeline of projects/x.jsonl')).toBe('Context timeline of projects/x.jsonl');
    // Still too long without its folders: cut in the middle (by code point), start and end kept.
    const long = `Context timeline of ${'🦀'.repeat(60)}-${'z'.repeat(80)}.jsonl`;
    const cut = drawn(long);
    expect(Array.from(cut).length).toBeLessThanOrEqual(Math.floor((960 - 56 - 12) / 8.2));
    expect(cut).toMatch(/^Context timeline of 🦀+…z+\.jsonl$/u);
    // No emoji split in two: a lone surrogate is a code point of its own under /u.
    expect(cut).not.toMatch(/\p{Cs}/u);
  });
});
