import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSessionDump } from '../../src/engine/inspect/dump';
import { LiveParse } from '../../src/engine/parse/live-parse';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { corpusName, corpusOrSkip, corpusPresent, CORPUS } from '../helpers/corpus';

// Live mode reads only the bytes appended to a growing main file: the session it builds piece by
// piece must be the one a single parse of the final file gives, wherever the pieces were cut
// (inside a line, inside a multi-byte UTF-8 character).

const ROOT = resolve(__dirname, '../..');
const SAMPLE = 'public/samples/63afec48-7874-40b5-a0f1-7fc9fd28fba9.jsonl';

/** Deterministic cut points (a small LCG), plus one inside a multi-byte character after the first third. */
function cutPoints(bytes: Uint8Array, count: number, seed: number): number[] {
  const cuts = new Set<number>();
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    cuts.add(1 + (x % (bytes.byteLength - 1)));
  }
  const third = Math.floor(bytes.byteLength / 3);
  const multi = bytes.subarray(third + 1).findIndex((b) => b >= 0xc0);
  if (multi >= 0) cuts.add(third + 1 + multi + 1);
  return [...cuts].sort((a, b) => a - b);
}

/** The file's first `end` bytes, as a source the live parse reads again. */
function prefix(name: string, bytes: Uint8Array, end: number) {
  return createMemorySource(name, bytes.subarray(0, end));
}

async function liveInPieces(name: string, bytes: Uint8Array, cuts: number[]) {
  // The page parses its first read up to the last whole line (follow.ts cuts there).
  // The first read holds a third of the file (a session the agent has been writing for a while):
  // its dialect is known, so every later read is an append.
  const first = bytes.lastIndexOf(0x0a, Math.floor(bytes.byteLength / 3)) + 1;
  const { live, reparsed } = await LiveParse.open(prefix(name, bytes, first));
  expect(reparsed).toBeUndefined();
  let read = first;
  const reparses: string[] = [];
  for (const cut of [...cuts.filter((c) => c > first), bytes.byteLength]) {
    const step = await live.append(prefix(name, bytes, cut));
    if (step.reparsed) reparses.push(step.reparsed);
    read += step.readBytes;
  }
  return { session: live.current, reparses, read };
}

async function expectSameAsOneShot(name: string, bytes: Uint8Array, cuts: number[]) {
  const whole = await parseSession([createMemorySource(name, bytes)]);
  const { session, reparses } = await liveInPieces(name, bytes, cuts);
  expect(reparses).toEqual([]);
  expect(formatSessionDump(session)).toBe(formatSessionDump(whole));
  expect(session).toEqual(whole);
}

describe('LiveParse', () => {
  it('builds the sample in pieces as one parse of the whole file does', async () => {
    const bytes = new Uint8Array(readFileSync(resolve(ROOT, SAMPLE)));
    await expectSameAsOneShot(SAMPLE, bytes, cutPoints(bytes, 12, 7));
  });

  it('waits for a line cut inside a multi-byte character, then reads it whole', async () => {
    const lines = [
      '{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"héllo wörld — ✓ 🎉"}}',
      '{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"text","text":"ünïcødé 🎉"}],"usage":{"input_tokens":10,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}',
      '{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":"🎉🎉 again"}}',
    ];
    const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
    // Every cut inside the emoji of the second line (4 bytes: 3 cuts inside it).
    const second = bytes.indexOf(0x0a) + 1;
    const emoji = bytes.indexOf(0xf0, second);
    const cuts = [emoji + 1, emoji + 2, emoji + 3];
    const name = 'live.jsonl';
    const whole = await parseSession([createMemorySource(name, bytes)]);
    const { live } = await LiveParse.open(prefix(name, bytes, second));
    for (const cut of cuts) {
      const step = await live.append(prefix(name, bytes, cut));
      expect(step.reparsed).toBeUndefined();
      expect(step.newLines).toBe(0);
      expect(live.current.entries).toHaveLength(1);
    }
    const step = await live.append(prefix(name, bytes, bytes.byteLength));
    expect(step.newLines).toBe(2);
    expect(step.readBytes).toBe(bytes.byteLength - second);
    expect(live.current).toEqual(whole);
    expect(live.current.entries[1]?.line).toBe(2);
    expect(live.current.entries[1]?.offsetBytes).toBe(second);
  });

  it('parses again whole when the file shrank or its first bytes changed', async () => {
    const bytes = new Uint8Array(readFileSync(resolve(ROOT, 'tests/fixtures/tiny.jsonl')));
    const half = bytes.lastIndexOf(0x0a, bytes.byteLength >> 1) + 1;
    const name = 'tiny.jsonl';
    const { live } = await LiveParse.open(prefix(name, bytes, bytes.byteLength));
    const shrank = await live.append(prefix(name, bytes, half));
    expect(shrank.reparsed).toBe('the file shrank');
    // What was read before is gone: the page scores no compaction of this step (live-reading.ts).
    expect(shrank.restarted).toBe(true);
    expect(live.current).toEqual(await parseSession([prefix(name, bytes, half)]));
    const replaced = bytes.slice();
    replaced[5] = replaced[5] === 0x61 ? 0x62 : 0x61;
    const changed = await live.append(createMemorySource(name, replaced));
    expect(changed.reparsed).toMatch(/first bytes changed/);
    expect(changed.restarted).toBe(true);
    expect(changed.readBytes).toBe(replaced.byteLength);
    expect(live.current).toEqual(await parseSession([createMemorySource(name, replaced)]));
    // And it goes on appending after a whole parse.
    const again = await live.append(createMemorySource(name, replaced));
    expect(again).toMatchObject({ readBytes: 0, newLines: 0 });
  });

  it('parses whole each time a file it cannot resume (not JSON lines yet)', async () => {
    const name = 'notes.jsonl';
    const { live } = await LiveParse.open(createMemorySource(name, 'not json\n'));
    expect(live.notResumable).toMatch(/not \(yet\) JSON lines/);
    const step = await live.append(createMemorySource(name, 'not json\nstill not\n'));
    expect(step.reparsed).toMatch(/not \(yet\) JSON lines/);
    // Read whole again, but the same content grown: not a restart.
    expect(step.restarted).toBeUndefined();
  });

  const corpusFiles = corpusPresent
    ? [
        'iansherr__claude-code-log/test__test_data__real_projects__-Users-dain-workspace-claude-code-log-sample__0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl',
        'LAF-US__IDAHO-VAULT/codex__sessions__2026__04__19__rollout-2026-04-19T22-04-58-019da910-1d2d-7883-b552-6e3adf8a4ed9.jsonl',
      ].map((p) => resolve(CORPUS, p))
    : [];
  it.skipIf(!corpusOrSkip('live-parse corpus pieces'))(
    'builds corpus files in pieces as one parse does',
    async () => {
      for (const path of corpusFiles) {
        let bytes: Uint8Array;
        try {
          bytes = new Uint8Array(readFileSync(path));
        } catch {
          console.warn(`${corpusName(path)} absent from this corpus: skipped`);
          continue;
        }
        await expectSameAsOneShot(path.split('/').pop()!, bytes, cutPoints(bytes, 9, 11));
      }
    },
  );
});

// A session-level note (understated-output.ts: "5 of 200 API calls record fewer output tokens…") is
// derived from the calls read so far. Followed from line 200 to 877, 20 lines a step, the page
// once listed 33 copies of it, each with its step's count ("5 of 47…", "5 of 52…").
const DEALERFLOW =
  'reviewchaser__dealerflow/claude__projects__C--Users-georg-dealerflow__57c87a56-24c0-4296-be22-193aa3e1e16c.jsonl';

describe('LiveParse, session-level issues', () => {
  it.skipIf(!corpusOrSkip('live-parse session-level issues'))(
    'ends a many-step follow of a real file with exactly the issues of a whole parse',
    async () => {
      const bytes = new Uint8Array(readFileSync(resolve(CORPUS, DEALERFLOW)));
      const ends: number[] = [];
      for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) ends.push(i + 1);
      const name = 'dealerflow.jsonl';
      const { live } = await LiveParse.open(prefix(name, bytes, ends[199]!));
      const brief = (issues: readonly { code: string; line: number; message: string }[]) =>
        issues.map(({ code, line, message }) => ({ code, line, message }));
      let steps = 0;
      for (let i = 219; i < ends.length + 19; i += 20) {
        const step = await live.append(prefix(name, bytes, ends[Math.min(i, ends.length - 1)]!));
        expect(step.reparsed).toBeUndefined();
        steps++;
        // Every step, not only the last: each step's issues are a whole parse's of what it read.
        const upTo = await parseSession([prefix(name, bytes, ends[Math.min(i, ends.length - 1)]!)]);
        expect(brief(live.current.issues), `step ${steps}`).toEqual(brief(upTo.issues));
      }
      expect(steps).toBeGreaterThan(30);
      const whole = await parseSession([createMemorySource(name, bytes)]);
      expect(whole.issues.map((i) => i.code)).toEqual(['understated-output']);
      expect(whole.issues[0]?.message).toMatch(/^5 of 200 API calls/);
      expect(brief(live.current.issues)).toEqual(brief(whole.issues));
      expect(live.current).toEqual(whole);
    },
  );
});

describe('LiveParse, a new session', () => {
  it('starts resuming once the dialect is known, a partial line always waiting', async () => {
    const bytes = new Uint8Array(readFileSync(resolve(ROOT, SAMPLE)));
    const name = 'live.jsonl';
    const { live } = await LiveParse.open(prefix(name, bytes, 40));
    const cuts = cutPoints(bytes, 10, 3);
    const reasons: (string | undefined)[] = [];
    for (const cut of [...cuts, bytes.byteLength])
      reasons.push((await live.append(prefix(name, bytes, cut))).reparsed);
    // Whole parses only until the first whole record was read; appends after.
    const firstAppend = reasons.indexOf(undefined);
    expect(firstAppend).toBeGreaterThanOrEqual(0);
    expect(reasons.slice(firstAppend).every((r) => r === undefined)).toBe(true);
    expect(live.current).toEqual(await parseSession([createMemorySource(name, bytes)]));
  });
});
