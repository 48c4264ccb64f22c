import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeStatsRow } from '../../src/cli/stats/stats-row';
import { computeReportHtml } from '../../src/engine/export/report-html';
import { getLibraryRow } from '../../src/engine/library/library-row';
import { countCompactions, isMainThreadCompaction } from '../../src/engine/parse/main-thread';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getCompactionDetail } from '../../src/engine/query/compaction-detail';
import { getSessionOverview } from '../../src/engine/query/session-overview';
import { computeTimelineSeries } from '../../src/engine/query/timeline-series';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { countCompactBoundaries } from '../helpers/plain-count';

// A session's compactions as the page counts them: the main thread's, the subagents' apart. The
// page's header counted every file's ("15 compactions" where the list said 6), and the timeline
// drew the 4 subagents' 9 compactions as main-thread markers ("after call 5: Compaction (auto) ·
// 182,356 → –") placed by their time among unrelated main calls. Checked on the corpus's real
// sessions against a count of the files' `compact_boundary` records made without the engine.

const present = corpusOrSkip('main-thread compaction counts');
const DIR = join(CORPUS, 'LAF-US__IDAHO-VAULT');
const PREFIX = 'claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__';

/** The corpus flattens `<session>/subagents/agent-<id>.jsonl`: the files under the names Claude Code gives. */
function sessionFiles(session: string): { name: string; path: string }[] {
  return (present ? readdirSync(DIR) : [])
    .filter((n) => n.startsWith(`${PREFIX}${session}`))
    .sort((a, b) => a.length - b.length || a.localeCompare(b))
    .map((n) => {
      const at = n.indexOf('__subagents__');
      return { name: at > 0 ? n.slice(at + '__subagents__'.length) : `${session}.jsonl`, path: join(DIR, n) };
    });
}

async function open(session: string) {
  const files = sessionFiles(session);
  const sources = files.map((f) => createMemorySource(f.name, readFileSync(f.path)));
  const logs = files.filter((f) => f.name.endsWith('.jsonl')).map((f) => countCompactBoundaries(f.path));
  return { parsed: await parseSession(sources), sources, logs };
}

describe.runIf(present)('compactions of the main thread, the subagents apart (the corpus)', () => {
  it('05541cb5 (4 subagents): 6 on the main thread, 9 in subagents, everywhere the page counts', async () => {
    const { parsed, sources, logs } = await open('05541cb5-fe43-41c9-87ef-2a6d89bba271');
    expect(logs).toHaveLength(5);
    const [mainLog, ...subLogs] = logs;
    expect(mainLog).toBe(6);
    expect(subLogs.reduce((a, b) => a + b, 0)).toBe(9);

    const counts = countCompactions(parsed);
    expect(counts).toEqual({ auto: 6, manual: 0, micro: 0, truncated: 0, inSubagents: 9 });
    // The header's figures (overview), the list's row and `stats` (library row): one count.
    expect(getSessionOverview(parsed).compactionCounts).toEqual(counts);
    expect(getLibraryRow(parsed).compactions).toEqual(counts);
    // `stats`' row: the main thread's by kind, the subagents' in a column of their own.
    expect(await computeStatsRow('05541cb5', sources)).toMatchObject({
      compactions: 6,
      autoCompactions: 6,
      subagentCompactions: 9,
    });

    // The timeline: a marker per main-thread compaction, each between the calls around it.
    const series = computeTimelineSeries(parsed);
    expect(series.markers).toHaveLength(6);
    for (const m of series.markers) {
      const c = parsed.compactions[m.compactionIndex]!;
      expect(isMainThreadCompaction(parsed, c)).toBe(true);
      expect(series.callIndex[Math.floor(m.x)]).toBe(c.apiCallBefore);
      expect(m.postTokens).toBeGreaterThan(0);
    }

    // The card numbers a compaction in its own thread: the main one's of 6, a subagent's of its log's.
    const first = getCompactionDetail(parsed, series.markers[0]!.compactionIndex);
    expect(first.thread).toEqual({ index: 0, total: 6 });
    const subIndex = parsed.compactions.findIndex((c) => !isMainThreadCompaction(parsed, c));
    const sub = getCompactionDetail(parsed, subIndex);
    expect(sub.thread.subagent).toBe(parsed.files[parsed.compactions[subIndex]!.fileIndex]!.agentId);
    expect(sub.thread.total).toBe(subLogs.find((n) => n > 0));

    // The one-file report says the same and lists the subagents' in their logs.
    const html = await computeReportHtml(parsed, sources, { generatedAtMs: 0 });
    expect(html).toContain('<dt>compactions</dt><dd>6 (6 auto · 0 manual · 0 µ) · 9 in subagents</dd>');
    expect(html).toContain("<h3>In subagents' logs (9)</h3>");
  });

  it('cc06da85 (only a subagents folder): the log read as the main thread is counted and placed as one', async () => {
    const { parsed, logs } = await open('cc06da85-8b62-41f5-9393-d8ff1a51b0df');
    const [mainLog, ...subLogs] = logs;
    const main = parsed.files.find((f) => f.role === 'main')!;
    expect(basename(main.name)).toBe('agent-a3599cac2cb441dfd.jsonl');
    expect(main.openedAlone).toBe(true);
    expect(mainLog).toBe(1);
    const counts = countCompactions(parsed);
    expect(counts).toEqual({ auto: 1, manual: 0, micro: 0, truncated: 0, inSubagents: 22 });
    expect(subLogs.reduce((a, b) => a + b, 0)).toBe(22);
    expect(getLibraryRow(parsed).compactions).toEqual(counts);
    // Its entries are a sidechain's, yet it is the thread drawn: its marker sits after its call 1.
    const { markers } = computeTimelineSeries(parsed);
    expect(markers.map((m) => m.x)).toEqual([0.5]);
  });
});
