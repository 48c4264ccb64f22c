import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getLibraryRow } from '../../src/engine/library/library-row';
import { scanSession } from '../../src/engine/library/scan-session';
import { corpusFilesOf, corpusName, corpusOrSkip } from '../helpers/corpus';

// A session's name as its agent lists it (parse/session-title.ts). Real Claude Code logs hold
// `custom-title` (a /rename), `ai-title` and `summary` records; a session file often begins with
// `summary` records of the sessions before it (their `leafUuid` is in no record of the file),
// which must not name it.

const parse = (name: string, text: string) => parseSession([createMemorySource(name, text)]);

/** The name a plain reading of the raw records gives: our rule written again, record by record. */
function expectedClaudeTitle(text: string): string | undefined {
  const records = text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const uuids = new Set(records.map((r) => r.uuid).filter((u) => typeof u === 'string'));
  const last = (type: string, key: string, own = (_: Record<string, unknown>) => true) =>
    records.filter((r) => r.type === type && typeof r[key] === 'string' && own(r)).at(-1)?.[key] as
      | string
      | undefined;
  const name =
    last('custom-title', 'customTitle') ??
    last('ai-title', 'aiTitle') ??
    last('summary', 'summary', (r) => typeof r.leafUuid !== 'string' || uuids.has(r.leafUuid));
  return name?.replace(/\s+/g, ' ').trim().slice(0, 200);
}

describe.skipIf(!corpusOrSkip('session titles of the real Claude Code logs'))(
  'the real Claude Code logs: the name each states',
  () => {
    const files = corpusFilesOf('claude-code').filter((f) => !basename(f).startsWith('agent-'));
    it('agrees with a plain reading of the records, for every main file', async () => {
      let named = 0;
      let othersOnly = 0;
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        const session = await parse(basename(file), text);
        const expected = expectedClaudeTitle(text);
        expect(session.meta.title?.text, corpusName(file)).toBe(expected);
        if (expected !== undefined) named++;
        else if (text.includes('"type":"summary"')) othersOnly++;
      }
      // The corpus holds both kinds: named sessions and files whose summaries name others only.
      expect(named).toBeGreaterThan(0);
      expect(othersOnly).toBeGreaterThan(0);
    });

    it('the library scan lists the same name as the full parse', async () => {
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        const full = getLibraryRow(await parse(basename(file), text));
        const scanned = await scanSession([createMemorySource(basename(file), text)]);
        expect(scanned.title, corpusName(file)).toBe(full.title);
      }
    });
  },
);

describe('names stated by each agent', () => {
  it("Claude Code: a rename over the generated title, the latest of each; another session's summary names none", async () => {
    const other = { type: 'summary', summary: 'An earlier session', leafUuid: 'not-here' };
    const user = {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: 's',
      timestamp: '2026-05-01T10:00:00Z',
      message: { role: 'user', content: 'hi' },
    };
    const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');
    expect((await parse('s.jsonl', lines(other, user))).meta.title).toBeUndefined();
    const own = { type: 'summary', summary: 'This one', leafUuid: 'u1' };
    expect((await parse('s.jsonl', lines(other, user, own))).meta.title).toEqual({
      text: 'This one',
      source: 'summary',
      line: 3,
    });
    const ai = { type: 'ai-title', aiTitle: 'Generated', sessionId: 's' };
    const renamed = { type: 'custom-title', customTitle: '  My   name ', sessionId: 's' };
    const later = { type: 'ai-title', aiTitle: 'Generated again', sessionId: 's' };
    const session = await parse('s.jsonl', lines(user, own, renamed, ai, later));
    expect(session.meta.title).toEqual({ text: 'My name', source: 'custom-title', line: 3 });
  });

  it('Codex: the latest thread name; one taken back leaves none', async () => {
    const meta = {
      timestamp: '2026-05-01T10:00:00Z',
      type: 'session_meta',
      payload: { id: 'th', cwd: '/p', cli_version: '0.120.0', timestamp: '2026-05-01T10:00:00Z' },
    };
    const named = (name?: string) => ({
      timestamp: '2026-05-01T10:00:01Z',
      type: 'event_msg',
      payload: { type: 'thread_name_updated', thread_id: 'th', ...(name ? { thread_name: name } : {}) },
    });
    const text = (...r: object[]) => r.map((x) => JSON.stringify(x)).join('\n');
    const name = 'rollout-2026-05-01T10-00-00-th.jsonl';
    expect((await parse(name, text(meta, named('First'), named('Second')))).meta.title?.text).toBe('Second');
    expect((await parse(name, text(meta, named('First'), named()))).meta.title).toBeUndefined();
  });

  it("pi: the latest session_info with a name; an empty one skipped, as pi's getSessionName does", async () => {
    const header = {
      type: 'session',
      version: 3,
      id: 'p1',
      timestamp: '2026-05-01T10:00:00.000Z',
      cwd: '/p',
    };
    const info = (name: string, id: string) => ({
      type: 'session_info',
      id,
      parentId: null,
      timestamp: '2026-05-01T10:00:01.000Z',
      name,
    });
    const text = [header, info('Refactor', 'a1'), info('  ', 'a2')].map((r) => JSON.stringify(r)).join('\n');
    const session = await parse('2026-05-01T10-00-00-000Z_p1.jsonl', text);
    expect(session.format).toBe('pi');
    expect(session.meta.title).toEqual({ text: 'Refactor', source: 'session_info', line: 2 });
  });
});
