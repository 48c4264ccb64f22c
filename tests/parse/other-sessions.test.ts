import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { type ByteSource, createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';
import { corpusOrSkip, corpusSessionGroups, FOREIGN } from '../helpers/corpus';

// Files of two sessions opened together were read as one: two real Claude Code sessions of one
// project interleaved (852 entries, the second drawn as a fork of the first), three Gemini CLI chats
// and the project's prompt log read as one chat of 190 turns. The first main file's session is now
// read alone and every file of another session is listed, not read, with an issue; a file that
// continues the session (a resume that copies the history, or links to it) still reads with it.

const present = corpusOrSkip('other-sessions corpus tests');

/** A corpus session folder as a person opens it: `<id>.jsonl` and `<id>/subagents/agent-*.jsonl`. */
function folderSources(main: string, subagents: readonly string[]): ByteSource[] {
  const id = basename(main, '.jsonl').split('__').at(-1)!;
  return [
    createMemorySource(`${id}.jsonl`, readFileSync(main)),
    ...subagents
      .filter((p) => p.endsWith('.jsonl'))
      .map((p) => createMemorySource(`${id}/subagents/${basename(p).split('__').at(-1)}`, readFileSync(p))),
  ];
}

/** A real session's lines, and the session they make read whole. */
async function readWhole(path: string): Promise<{ lines: string[]; whole: Session }> {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  return { lines, whole: await parseSession([createMemorySource('whole.jsonl', lines.join('\n'))]) };
}

const otherSessionIssues = (s: Session) => s.issues.filter((i) => i.code === 'other-session');
const countsOf = (s: Session) => ({
  entries: s.entries.length,
  calls: s.apiCalls.length,
  compactions: s.compactions.length,
  sessionId: s.meta.sessionId,
});

describe.skipIf(!present)('sessions opened together (real logs)', () => {
  const groups = corpusSessionGroups().filter(
    (g) => g.main !== undefined && g.subagents.some((p) => p.endsWith('.jsonl')),
  );

  it('reads the first session alone and lists the other, with its subagents, as not read', async () => {
    expect(groups.length).toBeGreaterThanOrEqual(2);
    const [a, b] = groups as [(typeof groups)[0], (typeof groups)[0]];
    const aSources = folderSources(a.main!, a.subagents);
    const bSources = folderSources(b.main!, b.subagents);
    const alone = await parseSession(folderSources(a.main!, a.subagents));
    const together = await parseSession([...aSources, ...bSources]);
    expect(countsOf(together)).toEqual(countsOf(alone));
    const issues = otherSessionIssues(together);
    const bSessionId = (
      JSON.parse(
        readFileSync(b.main!, 'utf8')
          .split('\n')
          .find((l) => l.includes('"sessionId"'))!,
      ) as { sessionId: string }
    ).sessionId;
    // Every file of b (its transcript and each subagent log) is named, none of a's.
    expect(issues.map((i) => together.files[i.fileIndex]!.name).sort()).toEqual(
      bSources.map((s) => s.name).sort(),
    );
    for (const i of issues) {
      expect(i.severity).toBe('warning');
      expect(i.message).toContain(` than ${aSources[0]!.name}'s`);
      expect(together.files[i.fileIndex]!.role).toBe('other-session');
      // The session it states stays known (the page opens it from the header by it).
      expect(together.files[i.fileIndex]!.sessionId).toBe(bSessionId);
    }
    expect(together.files.filter((f) => f.role === 'main').map((f) => f.name)).toEqual([aSources[0]!.name]);
  });

  it('keeps a resumed file that copies the history: one conversation, the copies folded', async () => {
    const { lines, whole } = await readWhole(groups[0]!.main!);
    const half = Math.floor(lines.length / 2);
    const originalId = whole.meta.sessionId!;
    const resumedId = '00000000-0000-4000-8000-000000000001';
    // The new file holds the history's messages again under its own session id (FORMAT.md: resumed
    // or forked sessions copy history), then goes on. Copied are the records with a uuid: a copy of
    // one without (a title, a file snapshot) cannot be told from a new one.
    const copied = lines.slice(0, half).filter((l) => (JSON.parse(l) as { uuid?: string }).uuid);
    const resumed = [...copied, ...lines.slice(half)]
      .map((l) => l.replaceAll(originalId, resumedId))
      .join('\n');
    const s = await parseSession([
      createMemorySource('first.jsonl', lines.slice(0, half).join('\n')),
      createMemorySource('resumed.jsonl', resumed),
    ]);
    expect(otherSessionIssues(s)).toEqual([]);
    expect(s.entries.length).toBe(whole.entries.length);
    expect(s.apiCalls.length).toBe(whole.apiCalls.length);
    expect(s.compactions.length).toBe(whole.compactions.length);
    const firstUuids = s.entries.filter((e) => e.fileIndex === 0 && e.uuid !== undefined).length;
    expect(s.files[1]!.foldedCopies).toBe(firstUuids);
  });

  it('keeps a file whose records link to the first (a continuation under a new id)', async () => {
    const { lines, whole } = await readWhole(groups[0]!.main!);
    // Cut where the next record names an earlier one as its parent.
    const uuids = new Set<string>();
    let cut = -1;
    for (const [i, line] of lines.entries()) {
      const r = JSON.parse(line) as { uuid?: string; parentUuid?: string | null };
      if (i > lines.length / 2 && typeof r.parentUuid === 'string' && uuids.has(r.parentUuid)) {
        cut = i;
        break;
      }
      if (r.uuid) uuids.add(r.uuid);
    }
    expect(cut).toBeGreaterThan(0);
    const rest = lines.slice(cut).map((l) => l.replaceAll(whole.meta.sessionId!, 'continued-id'));
    const s = await parseSession([
      createMemorySource('first.jsonl', lines.slice(0, cut).join('\n')),
      createMemorySource('continued.jsonl', rest.join('\n')),
    ]);
    expect(otherSessionIssues(s)).toEqual([]);
    expect(s.entries.length).toBe(whole.entries.length);
    expect(s.apiCalls.length).toBe(whole.apiCalls.length);
  });

  it("reads a Gemini CLI project's chat alone, its other chats and prompt log listed", async () => {
    const project = join(FOREIGN, 'brexp__infra/.gemini/tmp');
    if (!existsSync(project)) return;
    const hash = readdirSync(project)[0]!;
    const dir = join(project, hash);
    const chats = readdirSync(join(dir, 'chats')).sort();
    const source = (path: string) => createMemorySource(path, readFileSync(join(dir, path)));
    // The prompt log first, as a folder's walk may give it: it is still read after the chats.
    const s = await parseSession([source('logs.json'), ...chats.map((c) => source(`chats/${c}`))]);
    const alone = await parseSession([source(`chats/${chats[0]}`)]);
    expect(countsOf(s)).toEqual(countsOf(alone));
    expect(s.files.filter((f) => f.role === 'main').map((f) => f.name)).toEqual([`chats/${chats[0]}`]);
    expect(
      otherSessionIssues(s)
        .map((i) => s.files[i.fileIndex]!.name)
        .sort(),
    ).toEqual(['logs.json', ...chats.slice(1).map((c) => `chats/${c}`)].sort());
    // Each chat file states its session: the document's `sessionId` beside its messages, which
    // is the session's (`compactlab stats` listed these chats with an empty session id).
    const stated = JSON.parse(readFileSync(join(dir, 'chats', chats[0]!), 'utf8')) as { sessionId: string };
    expect(s.files.find((f) => f.role === 'main')!.sessionId).toBe(stated.sessionId);
    expect(alone.meta.sessionId).toBe(stated.sessionId);
  });
});

describe('sessions opened together (generated)', () => {
  const record = (sessionId: string, uuid: string, parentUuid: string | null, text: string) =>
    JSON.stringify({
      type: 'user',
      sessionId,
      uuid,
      parentUuid,
      timestamp: '2026-01-01T00:00:00.000Z',
      message: { role: 'user', content: text },
    });

  it('never leaves out a file that states no session id', async () => {
    const s = await parseSession([
      createMemorySource('a.jsonl', record('s-a', 'u1', null, 'one')),
      createMemorySource('b.jsonl', record('', 'u2', null, 'two').replace('"sessionId":"",', '')),
    ]);
    expect(otherSessionIssues(s)).toEqual([]);
    expect(s.entries.length).toBe(2);
  });

  it('says which session a left-out file states, and reads the rest once', async () => {
    const s = await parseSession([
      createMemorySource(
        'a.jsonl',
        `${record('s-a', 'u1', null, 'one')}\n${record('s-a', 'u2', 'u1', 'two')}`,
      ),
      createMemorySource('b.jsonl', record('s-b', 'u3', null, 'three')),
    ]);
    expect(s.entries.map((e) => e.uuid)).toEqual(['u1', 'u2']);
    const [issue] = otherSessionIssues(s);
    expect(issue?.message).toMatch(
      /^b\.jsonl is another session \(s-b, written .*\) than a\.jsonl's \(s-a\): left out of it; open it alone$/,
    );
    expect(s.issues.filter((i) => i.code === 'duplicate-uuid')).toEqual([]);
  });
});
