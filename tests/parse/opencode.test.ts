import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { groupSessionFiles } from '../../src/engine/library/group-files';
import { scanSession } from '../../src/engine/library/scan-session';
import {
  detectDialectFromName,
  detectDialectFromRecord,
  isFolderFileName,
} from '../../src/engine/parse/detect';
import { OPENCODE_CLEARED } from '../../src/engine/parse/dialects/opencode';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getToolResultInfo } from '../../src/engine/query/tool-status';
import type { Session } from '../../src/engine/types';
import { buildOpenCodeFixtures } from '../fixtures/make-opencode-fixtures';

// OpenCode's session storage (src/engine/parse/dialects/opencode.ts) on a storage tree written
// from its source (tests/fixtures/make-opencode-fixtures.ts).

const ROOT = resolve(__dirname, '../fixtures/opencode');
const { session: SESSION, broken: BROKEN } = buildOpenCodeFixtures();

function load(files: readonly [string, string][], name = (p: string) => p): Promise<Session> {
  return parseSession(files.map(([path]) => createMemorySource(name(path), readFileSync(join(ROOT, path)))));
}

describe('OpenCode fixtures', () => {
  it('equal a fresh build (regenerate with tests/fixtures/make-opencode-fixtures.ts)', () => {
    for (const [path, text] of [...SESSION, ...BROKEN])
      expect(readFileSync(join(ROOT, path), 'utf8'), path).toBe(`${text}\n`);
  });
});

describe('detection', () => {
  it('by name and by record, without taking other dialects’ records', () => {
    const [sessionPath, sessionText] = SESSION[0]!;
    const [messagePath, messageText] = SESSION[1]!;
    const [partPath, partText] = SESSION[2]!;
    for (const [path, text] of [
      [sessionPath, sessionText],
      [messagePath, messageText],
      [partPath, partText],
    ]) {
      expect(detectDialectFromName(path!)?.id, path).toBe('opencode');
      expect(detectDialectFromRecord(JSON.parse(text!))?.id, path).toBe('opencode');
      expect(isFolderFileName(path!), path).toBe(true);
    }
    // A pi message and a Claude Code record are not OpenCode's.
    expect(detectDialectFromRecord({ type: 'message', id: 'a', parentId: null, message: {} })?.id).toBe('pi');
    expect(detectDialectFromRecord({ id: 'msg_1', role: 'user' })).toBeUndefined();
    expect(isFolderFileName('storage/project/abc.json')).toBe(false);
  });
});

describe('a session folder', () => {
  it('reads in the order OpenCode wrote it, whatever order the files come in', async () => {
    const inOrder = await load(SESSION);
    const shuffled = await load([...SESSION].reverse());
    expect(shuffled.apiCalls.map((c) => c.messageId)).toEqual(inOrder.apiCalls.map((c) => c.messageId));
    expect(shuffled.entries.map((e) => e.summaryText ?? e.blocks[0]?.kind)).toEqual(
      inOrder.entries.map((e) => e.summaryText ?? e.blocks[0]?.kind),
    );
    expect(inOrder.format).toBe('opencode');
    expect(inOrder.meta.sessionId).toBe('ses_6a1f0c2e3ffeR7kQ2mZ8vN4pLx');
    expect(inOrder.meta.cwd).toBe('/home/mira/code/tally');
  });

  it('each step (step-finish) is a call with its own tokens', async () => {
    const s = await load(SESSION);
    expect(s.apiCalls.map((c) => c.contextTokens)).toEqual([
      9012, 10500, 13600, 14350, 14690, 58400, 58600, 4220,
    ]);
    expect(s.userTurns).toBe(3);
    expect(s.toolPairs).toEqual({ matched: 5, unmatchedUses: 0, unmatchedResults: 0 });
  });

  it('pruned outputs are cleared, in one event before the next message', async () => {
    const s = await load(SESSION);
    const prune = s.compactions.find((c) => c.kind === 'microcompact')!;
    expect(prune).toMatchObject({ trigger: 'prune', apiCallBefore: 4, apiCallAfter: 5, preTokens: 14690 });
    expect(prune.clearedToolIds).toEqual(['toolu_01', 'toolu_02']);
    for (const id of ['toolu_01', 'toolu_02']) {
      const entry = s.entries[s.toolResultEntry.get(id)!]!;
      const block = entry.blocks[0]!;
      expect(block.kind === 'tool-result' && block.text).toBe(OPENCODE_CLEARED);
      expect(getToolResultInfo(s, id).status).toBe('cleared');
    }
    expect(getToolResultInfo(s, 'toolu_04').status).toBe('error');
  });

  it('the compaction follows its summary call and names the summary', async () => {
    const s = await load(SESSION);
    const compact = s.compactions.find((c) => c.kind === 'compact')!;
    expect(compact).toMatchObject({ trigger: 'auto', preTokens: 58600, postTokens: 4220, apiCallBefore: 6 });
    const summary = s.entries[compact.summaryEntryIndex!]!;
    expect(summary.blocks[0]?.kind === 'text' && summary.blocks[0].text).toMatch(/^## Goal/);
  });

  it('one group per session in a storage folder, parts with their messages', () => {
    const files = [...SESSION, ...BROKEN].map(([path]) => ({ path, sizeBytes: 1, modifiedMs: 0 }));
    const groups = groupSessionFiles(files);
    const session = groups.find((g) => g.key.endsWith('ses_6a1f0c2e3ffeR7kQ2mZ8vN4pLx.json'))!;
    expect(session.files).toHaveLength(SESSION.length);
    // The broken folder: its session's messages and parts, and the orphan part on its own.
    const broken = groups.filter((g) => g.key.startsWith('broken/'));
    expect(broken.map((g) => g.files.length).sort()).toEqual([1, BROKEN.length - 1]);
  });
});

describe('the session list', () => {
  it('lists a storage folder’s session as one row with its calls and events', async () => {
    const files = SESSION.map(([path]) => ({ path, sizeBytes: 1, modifiedMs: 0 }));
    const [group] = groupSessionFiles(files);
    const row = await scanSession(
      group!.files.map((f) => createMemorySource(f.path, readFileSync(join(ROOT, f.path)))),
    );
    expect(row).toMatchObject({
      agent: 'OpenCode',
      apiCalls: 8,
      peakContextTokens: 58600,
      subagentFiles: 0,
      compactions: { auto: 1, manual: 0, micro: 1, truncated: 0 },
    });
    expect(row.firstPrompt).toBe('Why does `tally report` print the totals twice?');
  });
});

describe('bad input and missing files', () => {
  it('names the broken file and line, and what is missing', async () => {
    const s = await load(BROKEN);
    expect(s.issues.map((i) => [s.files[i.fileIndex]?.name.split('/')[1], i.line, i.code])).toEqual([
      ['part', 6, 'not-json'],
      ['message', 1, 'wrong-shape'],
      ['part', 1, 'wrong-shape'],
      ['message', 1, 'wrong-shape'],
    ]);
    expect(s.issues[1]?.path).toBe('tokens');
    expect(s.issues[2]?.message).toMatch(/whose file \(message\/<sessionID>\/msg_\w+\.json\) was not opened/);
    expect(s.issues[3]?.message).toMatch(/^2 messages have no parts/);
    // The rest loads: two user turns' worth of text, three calls.
    expect(s.apiCalls).toHaveLength(3);
  });

  it('a message file alone says its parts are missing; a part alone, its message', async () => {
    const message = SESSION.find(([p]) => p.includes('/message/'))!;
    const alone = await load([message]);
    expect(alone.issues.map((i) => i.message)).toEqual([expect.stringMatching(/^1 message has no parts/)]);
    const part = SESSION.find(([p]) => p.includes('/part/'))!;
    const partAlone = await load([part], (p) => p.split('/').pop()!);
    expect(partAlone.issues[0]?.message).toMatch(/was not opened: its role and tokens are unknown/);
  });

  it('files of two sessions opened together are flagged', async () => {
    const s = await load([SESSION[1]!, BROKEN[0]!]);
    expect(s.issues.some((i) => /files of several OpenCode sessions/.test(i.message))).toBe(true);
  });
});

describe('a large storage folder', () => {
  it('reads thousands of record files in linear time', async () => {
    // 6,000 files: with a per-file copy of every name (quadratic), this took ~55 s; now ~2 s.
    const sid = 'ses_6a1f0c2e3ffeR7kQ2mZ8vN4pLx';
    const hex = (i: number) => (0xcd1d32268001 + i * 0x1000).toString(16).padStart(12, '0');
    const sources = [];
    for (let m = 0; m < 1200; m++) {
      const mid = `msg_${hex(m * 10)}AAAAAAAAAAAAAA`;
      const info = {
        id: mid,
        sessionID: sid,
        role: 'assistant',
        time: { created: Date.UTC(2026, 0, 1) + m },
        modelID: 'x',
        tokens: { input: m, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
      };
      sources.push(createMemorySource(`storage/message/${sid}/${mid}.json`, JSON.stringify(info, null, 2)));
      for (let p = 1; p < 5; p++) {
        const pid = `prt_${hex(m * 10 + p)}BBBBBBBBBBBBBB`;
        const part = { id: pid, sessionID: sid, messageID: mid, type: 'text', text: 'hello' };
        sources.push(createMemorySource(`storage/part/${mid}/${pid}.json`, JSON.stringify(part, null, 2)));
      }
    }
    const t0 = performance.now();
    const s = await parseSession(sources.reverse());
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(s.apiCalls.map((c) => c.contextTokens).slice(0, 3)).toEqual([0, 1, 2]);
    // Messages without step parts (an older write): each its own call, the last one said lost.
    expect(s.issues.map((i) => i.message)).toEqual([expect.stringMatching(/has tokens but no step parts/)]);
  }, 60_000);
});

describe('compactlab inspect', () => {
  it('reads a storage tree given file by file', async () => {
    const out: string[] = [];
    const paths = SESSION.map(([path]) => join(ROOT, path));
    expect(await main(['inspect', ...paths, '--json'], (t) => out.push(t))).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect([report.format, report.apiCalls.length, report.compactions.length]).toEqual(['opencode', 8, 2]);
  });
});
