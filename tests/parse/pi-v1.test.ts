import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { PI_V1 } from '../fixtures/make-pi-v1-fixture';

// Issue 18 item 6: pi's version 1 sessions have no entry ids, and a compaction names its kept range
// by position (`firstKeptEntryIndex`, an index into the file's records, header included). The
// fixture is a real pi log turned into version 1 by pi's migration run backwards, with one
// compaction added (tests/fixtures/make-pi-v1-fixture.ts). The same file migrated forwards the way pi
// does it on load must read the same.

const NAME = PI_V1.slice('agents/'.length);
const V1 = readFileSync(join(__dirname, '../fixtures', PI_V1), 'utf8');

type Json = Record<string, unknown>;

/**
 * pi's migrateV1ToV2 (badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:
 * packages/coding-agent/src/core/session-manager.ts:208-235) and the header's version: each entry
 * gets an id and the one before as parent; `firstKeptEntryIndex` becomes the id of that record.
 */
function migrateToV2(text: string): string {
  const entries = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Json);
  let prevId: string | null = null;
  entries.forEach((entry, i) => {
    if (entry.type === 'session') {
      entry.version = 2;
      return;
    }
    entry.id = `e${String(i).padStart(7, '0')}`;
    entry.parentId = prevId;
    prevId = entry.id as string;
    if (entry.type === 'compaction' && typeof entry.firstKeptEntryIndex === 'number') {
      const target = entries[entry.firstKeptEntryIndex];
      if (target && target.type !== 'session') entry.firstKeptEntryId = target.id;
      delete entry.firstKeptEntryIndex;
    }
  });
  return `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`;
}

const read = (text: string) => parseSession([createMemorySource(NAME, text)]);

describe('pi session version 1', () => {
  it('reads the kept range a compaction names by position', async () => {
    const s = await read(V1);
    expect(s.format).toBe('pi');
    expect(s.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(s.compactions).toHaveLength(1);
    const c = s.compactions[0]!;
    // Record 7 of the file (header = 0) is line 8: the first run's last answer.
    const kept = s.entries[c.keptFromEntryIndex!]!;
    expect([kept.line, kept.kind]).toEqual([8, 'assistant']);
    expect(c.preTokens).toBe(5615);
    expect(s.entries[c.entryIndex]?.summaryText).toBe('kept from line 8 (entry #7 of the file)');
  });

  it('reads as the same file migrated to version 2 the way pi does on load', async () => {
    const v1 = await read(V1);
    const v2 = await read(migrateToV2(V1));
    expect(v2.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    const figures = (s: typeof v1) => ({
      calls: s.apiCalls.map((c) => [c.line, c.contextTokens, c.model]),
      compactions: s.compactions.map((c) => [c.kind, c.apiCallBefore, c.preTokens, c.keptFromEntryIndex]),
      models: s.meta.models,
      userTurns: s.userTurns,
    });
    expect(figures(v1)).toEqual(figures(v2));
    expect(v1.apiCalls).toHaveLength(4);
  });

  it('says so when a position names no earlier record', async () => {
    const broken = V1.replace('"firstKeptEntryIndex":7', '"firstKeptEntryIndex":99');
    const s = await read(broken);
    expect(s.issues.map((i) => [i.line, i.path, i.message])).toContainEqual([
      9,
      'firstKeptEntryIndex',
      'At firstKeptEntryIndex: 99 names no earlier entry of this file',
    ]);
  });
});
