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
    expect(svg.match(/<g class="marker"/g)).toHaveLength(series.markers.filter((m) => m.isMain).length);
    expect(svg.match(/<g class="threshold"/g)).toHaveLength(2);
    expect(svg).toContain('<title>a &lt;b&gt; title</title>');
    expect(svg).not.toContain('<b>');
  });
});
