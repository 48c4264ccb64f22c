import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { DEFAULT_ROW_FILTER } from '../../src/engine/query/row-filter';
import { computeRowIndex } from '../../src/engine/query/row-index';
import { getRowPage } from '../../src/engine/query/row-page';
import { getSessionOverview } from '../../src/engine/query/session-overview';
import { computeTimelineSeries } from '../../src/engine/query/timeline-series';
import { computeTokenTable } from '../../src/engine/query/token-table';

// The query layer over the shared fixture files (tests/fixtures, written by make-fixtures.ts).

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const has = (name: string) => fs.existsSync(path.join(FIXTURES, name));

async function parseFixture(name: string) {
  return parseSession([createMemorySource(name, fs.readFileSync(path.join(FIXTURES, name)))]);
}

describe('query functions over tests/fixtures', () => {
  it.runIf(has('tiny.jsonl'))('tiny.jsonl: every entry has a row and every call a point', async () => {
    const session = await parseFixture('tiny.jsonl');
    const indices = computeRowIndex(session, DEFAULT_ROW_FILTER);
    expect(indices.length).toBe(session.entries.length);
    const rows = getRowPage(session, indices, 0, indices.length);
    expect(rows.every((r) => !r.text.includes('\n'))).toBe(true);
    expect(computeTimelineSeries(session).contextTokens.length).toBe(session.apiCalls.length);
    expect(computeTokenTable(session).callIndex.length).toBe(session.apiCalls.length);
    expect(getSessionOverview(session).notTranscript).toBeUndefined();
  });

  it.runIf(has('broken.jsonl'))('broken.jsonl: valid lines are rows, bad lines are issues', async () => {
    const session = await parseFixture('broken.jsonl');
    const summary = getSessionOverview(session);
    expect(summary.issueCounts.error + summary.issueCounts.warning).toBeGreaterThan(0);
    expect(summary.notTranscript).toBeUndefined();
    expect(computeRowIndex(session, DEFAULT_ROW_FILTER).length).toBe(session.entries.length);
    expect(session.entries.length).toBeGreaterThan(0);
  });

  it.runIf(has('xss.jsonl'))('xss.jsonl: payloads stay literal text in rows', async () => {
    const session = await parseFixture('xss.jsonl');
    const indices = computeRowIndex(session, { ...DEFAULT_ROW_FILTER, search: '<script>' });
    expect(indices.length).toBeGreaterThan(0);
    const [row] = getRowPage(session, indices, 0, 1);
    expect(row!.text).toContain('<script>window.__pwned=1</script>');
  });

  it.runIf(has('not-a-transcript.json'))('not-a-transcript.json: the summary says why', async () => {
    const summary = getSessionOverview(await parseFixture('not-a-transcript.json'));
    expect(summary.notTranscript?.code).toBe('not-a-transcript');
  });
});
