import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession } from '../../src/engine/parse/parse-session';
import {
  corpusFiles,
  corpusName,
  corpusOrSkip,
  foreignFiles,
  REAL_LOGS,
  restoredRealLogFiles,
} from '../helpers/corpus';
import { readTruth } from '../truth/index';
import { getTruthPeak, type Truth } from '../truth/types';

// Issue 18 item 2: every real transcript of ../shared/corpus (Claude Code, Codex, Cline) and
// ../shared/corpus/foreign (Codex, Gemini CLI, pi, Cline), each file parsed alone, against the
// truth reader of its format (tests/truth/: raw records only, no engine import). API calls, the
// context of each, the peak, and where each compaction falls must be the same.
//
// Where the engine and the truth disagree and the raw records prove the truth right, the case is
// a defect listed in KNOWN below with the engine's value as it is today: the test fails when that
// value changes, so a fix removes its row. Today every real file and every fixture agrees
// (89 real files, 2026-11-27).

const present = corpusOrSkip('truth-reader corpus tests');

type Figure = 'calls' | 'contexts' | 'peak' | 'compactions' | 'failed';

interface KnownDisagreement {
  /** The file's path under ../shared/corpus. */
  file: string;
  figure: Figure;
  /** The engine's value today (as `figures` renders it). */
  engine: string;
  truth: string;
  why: string;
}

const KNOWN: readonly KnownDisagreement[] = [];

/** Each figure, rendered as a string so one table can hold them all. */
function engineFigures(report: ReturnType<typeof computeInspectReport>): Record<Figure, string> {
  return {
    calls: String(report.apiCalls.length),
    contexts: report.apiCalls.map((c) => c.contextTokens).join(','),
    peak: String(report.peakContextTokens),
    compactions: report.compactions.map((c) => `${c.kind}@${c.apiCallBefore ?? -1}`).join(' '),
    // Requests that brought back no answer, apart from the calls (issue 18 item 5).
    failed: (report.failedRequests ?? []).map((f) => `${f.reason}@${f.afterApiCall}`).join(' '),
  };
}

function truthFigures(truth: Truth, engineContexts: number[]): Record<Figure, string> {
  return {
    calls: String(truth.calls.length),
    // A call whose log records no usage: the engine estimates it; the truth has no figure to hold it
    // to ('?' where the calls themselves differ).
    contexts: truth.calls
      .map(
        (c, i) => c.contextTokens ?? (truth.calls.length === engineContexts.length ? engineContexts[i] : '?'),
      )
      .join(','),
    peak: String(getTruthPeak(truth)),
    compactions: truth.compactions.map((c) => `${c.kind}@${c.afterCall}`).join(' '),
    failed: (truth.failed ?? []).map((f) => `${f.reason}@${f.afterCall}`).join(' '),
  };
}

const withTruth = (paths: string[], name: (path: string) => string) =>
  paths.flatMap((path) => {
    if (!/\.jsonl?$/.test(path)) return [];
    const read = readTruth(path);
    return read ? [{ path, name: name(path), ...read }] : [];
  });

const files = [
  ...withTruth([...corpusFiles(), ...foreignFiles()], corpusName),
  // Logs restored from tests/real-logs/manifest.json, when they are (scripts/restore-real-logs.mjs).
  ...withTruth(restoredRealLogFiles(), (path) => `.real-logs/${relative(REAL_LOGS, path)}`),
];

// Our own fixtures hold what the real logs lack (a Cline condense, pi's compaction, Gemini's JSONL
// log with records written twice); they run without ../shared.
const FIXTURES = join(__dirname, '../fixtures');
const fixtures = withTruth(
  [
    ...[
      'tiny.jsonl',
      'secrets.jsonl',
      'rewind.jsonl',
      'one-million.jsonl',
      'zero-usage.jsonl',
      'cline-task/ui_messages.json',
      'claude-sdk-stream/og-system.jsonl',
    ],
    ...readdirSync(join(FIXTURES, 'agents')).map((f) => `agents/${f}`),
  ].map((f) => join(FIXTURES, f)),
  (path) => relative(FIXTURES, path),
);

describe.skipIf(!present)('corpus: the engine against the truth readers', () => {
  it('finds the real logs of every format', () => {
    const byFormat: Record<string, number> = {};
    for (const f of files) byFormat[f.format] = (byFormat[f.format] ?? 0) + 1;
    expect(byFormat).toMatchObject({
      'claude-code': expect.any(Number),
      'claude-sdk-stream': expect.any(Number),
      codex: expect.any(Number),
      'gemini-cli': expect.any(Number),
      pi: expect.any(Number),
      cline: expect.any(Number),
    });
    expect(files.length).toBeGreaterThanOrEqual(89);
  });

  it.each(files.map((f) => [`${f.format} ${f.name}`, f] as const))('%s', (_name, f) => compareWithTruth(f));
});

describe('fixtures: the engine against the truth readers', () => {
  it('lists only disagreements of files it reads', () => {
    for (const k of KNOWN) expect([...files, ...fixtures].map((f) => f.name)).toContain(k.file);
  });

  it('reads a fixture of each format', () => {
    expect(new Set(fixtures.map((f) => f.format))).toEqual(
      new Set(['claude-code', 'claude-sdk-stream', 'cline', 'gemini-cli', 'pi']),
    );
  });
  it.each(fixtures.map((f) => [`${f.format} ${f.name}`, f] as const))('%s', (_name, f) =>
    compareWithTruth(f),
  );
});

async function compareWithTruth(f: (typeof files)[number]): Promise<void> {
  const report = computeInspectReport(await parseSession([createNodeFileSource(f.path)]));
  const engine = engineFigures(report);
  const truth = truthFigures(
    f.truth,
    report.apiCalls.map((c) => c.contextTokens),
  );
  for (const figure of Object.keys(engine) as Figure[]) {
    const known = KNOWN.find((k) => k.file === f.name && k.figure === figure);
    if (known) {
      expect(truth[figure], `${figure}: the truth changed; check ${known.why}`).toBe(known.truth);
      expect(engine[figure], `${figure}: the engine's value changed (fixed? remove the KNOWN row)`).toBe(
        known.engine,
      );
    } else expect(engine[figure], figure).toBe(truth[figure]);
  }
  // Totals the log states itself (the SDK stream's `result` lines), summed over its runs.
  if (f.truth.stated) {
    const stated = report.statedTotals;
    expect(stated, 'stated totals').toBeDefined();
    const input = stated
      ? stated.usage.inputTokens + stated.usage.cacheCreationInputTokens + stated.usage.cacheReadInputTokens
      : 0;
    expect({
      runs: stated?.runs,
      costUsd: stated?.costUsd?.toFixed(6),
      inputTokens: input,
      outputTokens: stated?.usage.outputTokens,
    }).toEqual({ ...f.truth.stated, costUsd: f.truth.stated.costUsd.toFixed(6) });
  }
  // The cost the agent wrote on its records (Cline, OpenCode), summed; none where it writes none.
  expect(report.statedCost?.usd.toFixed(6), 'stated cost').toBe(f.truth.statedCostUsd?.toFixed(6));
  // A trigger is compared where the log says it (Codex's and pi's records do not).
  f.truth.compactions.forEach((c, i) => {
    if (c.trigger !== undefined)
      expect(report.compactions[i]?.trigger, `trigger of compaction ${i}`).toBe(c.trigger);
    if (c.preTokens !== undefined)
      expect(report.compactions[i]?.preTokens, `preTokens of compaction ${i}`).toBe(c.preTokens);
  });
}
