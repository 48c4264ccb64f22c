import { describe, expect, it } from 'vitest';
import { computeLogErosion } from '../../src/engine/erosion/erosion';
import {
  EROSION_SERIES_STYLES,
  getErosionSeries,
  renderErosionSvg,
} from '../../src/engine/export/erosion-svg';
import { computeReportHtml } from '../../src/engine/export/report-html';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { makeErosionChain, PLANTED_PATH } from './chain-fixture';

async function chainOf() {
  const sources = [createMemorySource('erosion-chain.jsonl', makeErosionChain())];
  const session = await parseSession(sources);
  return { session, sources, chain: await computeLogErosion(session, sources) };
}

describe('erosion chart', () => {
  it('tells its series apart without colour: dash, marker shape and an end label each', async () => {
    const styles = Object.values(EROSION_SERIES_STYLES);
    expect(new Set(styles.map((s) => s.dash)).size).toBe(styles.length);
    expect(new Set(styles.map((s) => s.shape)).size).toBe(styles.length);
    const { chain } = await chainOf();
    const svg = renderErosionSvg(chain, { title: 'Chain <of> "summaries"' });
    const series = getErosionSeries(chain);
    expect(series.map((s) => s.key)).toEqual(['all', 'path', 'command', 'identifier', 'last-request']);
    for (const s of series) {
      expect(svg).toContain(`data-series="${s.key}"`);
      const last = s.values.at(-1)!;
      expect(svg).toContain(`>${s.label.replace('&', '&amp;')} ${Math.round(last * 100)}%</text>`);
    }
    expect(svg).toContain('Chain &lt;of&gt; &quot;summaries&quot;');
    // The planted path's category: 1 of 1 kept at step 1, so the path line starts at the top.
    expect(series.find((s) => s.key === 'path')!.values[0]).toBe(1);
    expect(renderErosionSvg(chain, { palette: 'dark' })).toContain('fill="#111827"');
    // Narrow: the names in rows below the plot, each with its line's dash.
    const narrow = renderErosionSvg(chain, { widthPx: 368, heightPx: 200, legend: 'below' });
    for (const s of series)
      expect(narrow).toContain(
        `>${s.label.replace('&', '&amp;')} ${Math.round(s.values.at(-1)! * 100)}%</text>`,
      );
    expect(narrow).toContain(`stroke-dasharray="${EROSION_SERIES_STYLES.path.dash}"`);
    expect(narrow).toMatch(/height="(\d+)"/);
    expect(Number(/height="(\d+)"/.exec(narrow)![1])).toBe(200 + series.length * 16); // one column at this width
  });

  it('the report carries the erosion chart and each step’s lost facts, with no script', async () => {
    const { session, sources } = await chainOf();
    const html = await computeReportHtml(session, sources, { generatedAtMs: 0 });
    const section = html.slice(html.indexOf('<section id="erosion">'));
    expect(section).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(section).toContain('Compaction 3: ');
    const third = section.slice(
      section.indexOf('Compaction 3: '),
      section.indexOf('</details>', section.indexOf('Compaction 3: ')),
    );
    expect(third).toContain(PLANTED_PATH);
    expect(html).not.toMatch(/<script/i);
  });
});
