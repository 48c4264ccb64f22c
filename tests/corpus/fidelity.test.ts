import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeFidelityReport, type FidelityReport } from '../../src/cli/fidelity';
import { computeFidelityTotals } from '../../src/engine/fidelity/fidelity';
import { corpusOrSkip, FOREIGN, REAL_LOGS, restoreCorpusTree } from '../helpers/corpus';
import { readTruth } from '../truth/index';
import { getTruthPeak } from '../truth/types';

// Issue 18 item 12: `compactlab fidelity` over the real corpora, ../shared/corpus (Claude Code,
// Codex, Cline: its original ~/.claude, ~/.codex layout rebuilt as links by its stats.py) and
// ../shared/corpus/foreign (Codex, Gemini CLI, pi, Cline, in their original layout), and the logs
// scripts/restore-real-logs.mjs restores into .real-logs/ when it has been run. Each agent's
// figures may not fall below today's; a better figure passes and says to raise it. Each
// transcript's API calls, peak context and compactions are held to the truth readers (tests/truth/).
// About 5 s.

const present = corpusOrSkip('fidelity corpus test');
const python = spawnSync('python3', ['--version']).status === 0;
if (present && !python)
  console.warn('fidelity corpus test skipped: python3 (for stats.py --restore-tree) is absent');

interface Figures {
  sessions: number;
  transcripts: number;
  real: number;
  exact: number;
  /** exact + within ±1 call. */
  reproduced: number;
  farther: number;
  missing: number;
  extra: number;
  /** Microcompactions: real, at the same call, at the same call or ±1. */
  micro: number;
  microExact: number;
  microReproduced: number;
}

/**
 * Today's figures (2026-11-28; Claude Code's include its stream-json, audit.jsonl): `farther`, `missing` and `extra` lower is better, the rest higher.
 * Two floors went down on purpose (issue 19 item 9), each a false match the replay no longer makes:
 * after a real compaction it missed, the replay applied the log's post-compaction usage to a
 * history that never compacted, jumped, and "reproduced" the log's compaction one call late.
 * - Claude Code reproduced 53 → 52, farther 1 → 2: `05541cb5` compaction 6 (after call 225,
 *   0-based) was matched one call late only because the count jumped to 182,576 after call 226; the
 *   series now grows with the log and the replay compacts after call 227 (+2).
 * - Cline real 4 → 13, exact 1 → 10, reproduced 1 → 10: the history-only task
 *   (mike4567) truncated nine times, which its file shows only as its input falling (now read as
 *   truncations, parse/dialects/cline/api-history.ts), and it replays with Cline's strategy at its
 *   provider's 128,000 window (it ran as Claude Code's at 200,000, with nothing to compare):
 *   all 9 at the same call, each with the range read from the log.
 * - Cline reproduced 2 → 1, farther 1 → 2, extra 1 → 0: the corpus task's truncation after call 31
 *   was matched by a truncation after call 32, after a jump from 123,236 to 171,649 in one call
 *   while the log grew 1,782 bytes; now the replay's truncation after call 25 is that one's nearest
 *   (6 early) and the one after call 37 comes after call 39.
 * Raised since (2026-11-28, fifth session): Claude Code exact 51 → 53, extra 1 → 0. Calls whose log
 * kept the usage of the stream's start count their answer's estimate as output (the agent held the
 * final usage; replay/prepare-call-axis.ts): `588184d4` and its stream (audit.jsonl) compact after
 * call 27 as logged (one call late before), `19722b8a` no longer compacts where the log did not.
 */
// biome-ignore format: a table, one agent a line.
const TODAY: Record<string, Figures> = {
  'Claude Code': { sessions: 29, transcripts: 71, real: 56, exact: 53, reproduced: 54, farther: 2, missing: 0, extra: 0, micro: 5, microExact: 4, microReproduced: 5 },
  'Codex CLI':   { sessions: 8,  transcripts: 8,  real: 3,  exact: 3,  reproduced: 3,  farther: 0, missing: 0, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
  Cline:         { sessions: 4,  transcripts: 4,  real: 13, exact: 10, reproduced: 10, farther: 2, missing: 1, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
  'Gemini CLI':  { sessions: 4,  transcripts: 4,  real: 0,  exact: 0,  reproduced: 0,  farther: 0, missing: 0, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
  pi:            { sessions: 3,  transcripts: 3,  real: 0,  exact: 0,  reproduced: 0,  farther: 0, missing: 0, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
};
/**
 * The same floors over the logs tests/real-logs/manifest.json points to, when all of them are
 * restored into .real-logs/ (2026-11-29, 172 files; the 72 of LAF-US/IDAHO-VAULT's 14 Claude Code
 * 2.1.81-2.1.111 session folders bring 29 compactions, 24 replayed at their call): 5 of them
 * (2.1.92-2.1.111) follow the log's last call, before a request no call answers, which the replay
 * did not step after; the same step brought 2 extras, two 2.1.92 subagents whose request after
 * their one call came back "out of extra usage" (rate_limit) with no compaction before it, where a
 * third (a42f6313) compacted and then met the same refusal: the log cannot say whether theirs was
 * tried and refused. 675b2557's main thread runs its haiku calls to 187,042 before compacting
 * (2 farther, 1 missing) and a 2.1.87 subagent (aea29def) compacts at 167,067 and 168,679 where the
 * usage, output and pending estimate reach ~163,900 (2 missing): unexplained. Claude Code's 2.1.68 compaction (e739b244) is
 * replayed 2 calls late (its preTokens 167,602 count 3,816 tokens beyond the last call's usage and
 * output, which the replay's pending estimate does not reach) and Gemini CLI's one compression is
 * missing (docs/replay-accuracy.md#gemini-cli). pi's 58d6dd28 has no call (OpenClaw's replies).
 * 2026-11-30: 12 Gemini CLI JSONL chats of AnthonyontheHub/TP-Tutor (2026-04), no compression;
 * Claude Code 2.0.42 (bestlove1211/opencode: 4 automatic compactions on the main lines, 1 on a
 * branch a resume left), 2.0.74 (Trollz1004/OMEGA-public: 1) and 2.1.38 (caochitam/aos: 1 manual),
 * each at its call; 4 Codex 0.77-0.80 rollouts without a compaction; 10 OpenClaw sessions in pi's
 * format with pi's first real compactions (9), each read as a /compact: under the threshold of the
 * assumed 200k window and pi's default reserve (docs/replay-accuracy.md#beyond-the-corpus); 7 Codex
 * 0.63-0.64 rollouts whose 10 compactions are /compact typed after the final answer (read as
 * automatic before, 7 missing and 3 farther: tests/parse/codex-compact-after-answer.test.ts).
 * Later the same day: OpenClaw's own reserve floor (20,000) and pi's window for a model of a
 * provider its registry lacks (128,000) put the 5 compactions of the deepseek sessions at their
 * call (tests/replay/pi-openclaw.test.ts); the 4 of the glm-5-turbo ones stay /compact.
 */
// biome-ignore format: a table, one agent a line.
const TODAY_REAL: Record<string, Figures> = {
  'Claude Code': { sessions: 22, transcripts: 97, real: 38, exact: 32, reproduced: 32, farther: 3, missing: 3, extra: 2, micro: 0, microExact: 0, microReproduced: 0 },
  'Codex CLI':   { sessions: 19, transcripts: 19, real: 1, exact: 1, reproduced: 1, farther: 0, missing: 0, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
  Cline:         { sessions: 2, transcripts: 2,  real: 0, exact: 0, reproduced: 0, farther: 0, missing: 0, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
  'Gemini CLI':  { sessions: 19, transcripts: 19, real: 1, exact: 0, reproduced: 0, farther: 0, missing: 1, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
  OpenCode:      { sessions: 4, transcripts: 4,  real: 0, exact: 0, reproduced: 0, farther: 0, missing: 0, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
  pi:            { sessions: 13, transcripts: 13, real: 5, exact: 5, reproduced: 5, farther: 0, missing: 0, extra: 0, micro: 0, microExact: 0, microReproduced: 0 },
};
/** Whether every file of the manifest is restored (the floors above are of all of them). */
const realLogsRestored = (
  JSON.parse(readFileSync(join(__dirname, '../real-logs/manifest.json'), 'utf8')) as {
    repo: string;
    path: string;
  }[]
).every((log) => existsSync(join(REAL_LOGS, log.repo.replace('/', '__'), log.path)));
if (present && !realLogsRestored)
  console.warn('fidelity floors of .real-logs skipped: run node scripts/restore-real-logs.mjs');
const HIGHER_IS_BETTER: (keyof Figures)[] = [
  'sessions',
  'transcripts',
  'real',
  'exact',
  'reproduced',
  'micro',
  'microExact',
  'microReproduced',
];
const LOWER_IS_BETTER: (keyof Figures)[] = ['farther', 'missing', 'extra'];

type Figure = 'calls' | 'peak' | 'compactions' | 'micro';

/** A transcript whose replayed figures differ from its truth reader's, and why (the raw records decide). */
interface KnownDisagreement {
  /** Its path under the restored tree or the foreign corpus. */
  file: string;
  figure: Figure;
  engine: number;
  truth: number;
  why: string;
}

const KNOWN: readonly KnownDisagreement[] = [
  {
    file: 'aistrad__work/.claude/projects/-home-aiscend-work-fortune-ai/c76ab3a5-d2b2-4e46-b7c5-6f2a31a55eb0.jsonl',
    figure: 'calls',
    engine: 54,
    truth: 66,
    why: 'a resume from line 208, before the second compact_boundary (line 256 names it as parent): the file holds that branch (line 209 boundary, 12 calls) and the resumed one (line 259 boundary, same preTokens 156,422). The replay follows the main line (engine/parse/branches.ts); the truth counts every request made. Not a defect.',
  },
  {
    file: '.real-logs/bestlove1211__opencode/.claude/projects/C--Users-tvi/ce3dbbb4-29e8-46ff-8659-ebabb07f2db8.jsonl',
    figure: 'calls',
    engine: 155,
    truth: 228,
    why: 'Claude Code 2.0.42: resumed two days later from line 398, the tool result before the compact_boundary of line 399 (line 616, "No response requested.", names it as parent): the file holds that branch (the boundary and its 73 calls) and the resumed one (line 619 boundary, same preTokens 155,573). The replay follows the main line (engine/parse/branches.ts); the truth counts every request made. Not a defect.',
  },
  {
    file: '.real-logs/LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT/61dcf75d-56df-459d-b351-729550898806.jsonl',
    figure: 'calls',
    engine: 318,
    truth: 319,
    why: 'Claude Code 2.1.86: a resume (line 448, "Continue from where you left off.") hangs from line 444, the tool result before the ExitPlanMode call of line 445, which got no result: that call is on the side the session left. The replay follows the main line (engine/parse/branches.ts); the truth counts every request made. Not a defect.',
  },
];
// The same resume's compactions agree now: the abandoned branch's compact_boundary (line 209) is
// off the main line, not replayed, and counted in `offBranch` (it was in no figure before).

let tree = '';
let report: FidelityReport;

describe.skipIf(!present || !python)('corpus: compactlab fidelity', () => {
  beforeAll(async () => {
    tree = restoreCorpusTree('fidelity');
    // Logs restored from tests/real-logs/manifest.json join the truth comparison when present; the
    // floors below are the ../shared corpora's alone, so they hold with or without them.
    report = await computeFidelityReport(
      existsSync(REAL_LOGS) ? [tree, FOREIGN, REAL_LOGS] : [tree, FOREIGN],
    );
  }, 120_000);
  const corpusRelative = (path: string) =>
    path.startsWith(REAL_LOGS)
      ? `.real-logs/${relative(REAL_LOGS, path)}`
      : relative(path.startsWith(FOREIGN) ? FOREIGN : tree, path);
  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  it('reads every session', () => {
    expect(report.errors).toEqual([]);
  });

  it('holds every transcript to its truth reader', () => {
    const table: Record<string, string | number>[] = [];
    const disagreements: Omit<KnownDisagreement, 'why'>[] = [];
    for (const total of report.perAgent) {
      const rows = report.rows.filter((r) => r.agent === total.agent);
      let withTruth = 0;
      const agree = { calls: 0, peak: 0, compactions: 0, micro: 0 };
      for (const row of rows) {
        const read = readTruth(row.file);
        if (!read) continue;
        withTruth++;
        // The log's compactions and truncations: those the replay should reproduce, and manual ones.
        const logged = read.truth.compactions.filter((c) => c.kind === 'compact' || c.kind === 'truncate');
        const figures = {
          calls: [row.apiCalls, read.truth.calls.length],
          peak: [row.peakContextTokens, getTruthPeak(read.truth)],
          // Off-branch ones are the log's too: counted apart, never dropped (replay/off-branch.ts).
          compactions: [row.real + row.manual + row.offBranch, logged.length],
          micro: [
            row.micro,
            read.truth.compactions.filter((c) => c.kind === 'microcompact' && c.trigger === 'auto').length,
          ],
        } as const;
        for (const [figure, [engine, truth]] of Object.entries(figures) as [Figure, readonly number[]][]) {
          if (engine === truth) agree[figure]++;
          else disagreements.push({ file: corpusRelative(row.file), figure, engine: engine!, truth: truth! });
        }
      }
      const {
        agent,
        sessions,
        transcripts,
        apiCalls,
        real,
        exact,
        within1,
        farther,
        missing,
        extra,
        manual,
        offBranch,
      } = total;
      table.push({
        agent,
        sessions,
        transcripts,
        'API calls': apiCalls,
        'calls = truth': `${agree.calls}/${withTruth}`,
        'peak = truth': `${agree.peak}/${withTruth}`,
        'compactions = truth': `${agree.compactions}/${withTruth}`,
        'micro = truth': `${agree.micro}/${withTruth}`,
        real,
        exact,
        '±1': within1,
        farther,
        missing,
        extra,
        manual,
        'off branch': offBranch,
        micro: total.micro,
        'µ exact': total.microExact,
        'µ ±1': total.microWithin1,
      });
      expect(withTruth, `${agent}: transcripts a truth reader reads`).toBe(transcripts);
    }
    console.table(table);
    // In file order, whatever the folders' order on this machine (the corpus is restored under the
    // system's temporary folder, the real logs under the checkout: /check/… sorts before /tmp/…).
    const byFile = (a: { file: string; figure: string }, b: { file: string; figure: string }) =>
      a.file.localeCompare(b.file) || a.figure.localeCompare(b.figure);
    expect(
      disagreements.sort(byFile),
      'disagreements with the truth readers (a fixed one: remove its KNOWN row)',
    ).toEqual(KNOWN.map(({ why: _, ...k }) => k).sort(byFile));
  });

  it('counts every logged compaction of a main transcript: compared, manual or off branch', () => {
    for (const row of report.rows.filter((r) => r.role === 'main'))
      expect(row.real + row.manual + row.offBranch, corpusRelative(row.file)).toBe(row.loggedCompactions);
    // c76ab3a5 (Claude Code 2.0.76): 3 automatic compactions, the one at line 209 on the branch a
    // resume abandoned at line 256.
    const resumed = report.rows.find((r) => r.file.includes('c76ab3a5-d2b2-4e46-b7c5-6f2a31a55eb0'));
    expect(resumed).toMatchObject({ real: 2, exact: 2, offBranch: 1, loggedCompactions: 3 });
  });

  const cases = [
    ...Object.keys(TODAY).map((agent) => ({ agent, corpus: '../shared', today: TODAY[agent]! })),
    ...Object.keys(TODAY_REAL).map((agent) => ({ agent, corpus: '.real-logs', today: TODAY_REAL[agent]! })),
  ];
  it.for(cases)('$agent in $corpus: no figure below today’s', ({ agent, corpus, today }, context) => {
    if (corpus === '.real-logs' && !realLogsRestored) context.skip();
    const rows = report.rows.filter((r) => r.file.startsWith(REAL_LOGS) === (corpus === '.real-logs'));
    const total = computeFidelityTotals(rows).find((t) => t.agent === agent);
    expect(total, `${agent} has sessions`).toBeDefined();
    if (!total) return;
    const now: Figures = {
      ...total,
      reproduced: total.exact + total.within1,
      microReproduced: total.microExact + total.microWithin1,
    };
    for (const k of HIGHER_IS_BETTER) {
      expect(now[k], `${agent} ${k}`).toBeGreaterThanOrEqual(today[k]);
      if (now[k] > today[k])
        console.info(`${agent} ${k} is ${now[k]}, above today's ${today[k]}: raise it in TODAY`);
    }
    for (const k of LOWER_IS_BETTER) {
      expect(now[k], `${agent} ${k}`).toBeLessThanOrEqual(today[k]);
      if (now[k] < today[k])
        console.info(`${agent} ${k} is ${now[k]}, below today's ${today[k]}: lower it in TODAY`);
    }
  });
});
