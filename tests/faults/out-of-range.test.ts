import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import type { Session } from '../../src/engine/types';
import { FIXTURES } from '../parse/dialect-fixtures';
import { badFigures, fixtureFiles, sourcesOf } from './figures';

// Out-of-range values in every dialect's fixture (real-shaped files): a negative, a string or an
// infinite token count, and a time outside the Date range or before the agents existed. Each is an
// `out-of-range` issue at its line naming the field and the value; it is left out of the figures
// (no negative cost or context, no NaN date, no 8,000-year session), and no entry is lost.

/** The token-count fields of the dialects, as they appear in the raw text (Cline's inside a JSON string). */
const COUNT =
  /(\\?"(?:input_tokens|output_tokens|tokensIn|tokensOut|input|output|cacheRead)\\?"\s*:\s*)(\d+)/g;
/** The time fields: ISO strings, and numbers of ms (Cline's `ts`, OpenCode's `time.created` / `start`). */
const ISO_TIME = /("(?:timestamp|startTime)"\s*:\s*)"[^"]*"/g;
const MS_TIME = /("(?:ts|created|start)"\s*:\s*)(\d{13})/g;

interface Case {
  dialect: string;
  fixture: string;
  files: { name: string; text: string }[];
}

const cases: Case[] = Object.entries(FIXTURES).flatMap(([dialect, fixtures]) =>
  fixtures
    .filter((f) => !f.name.includes('broken') && dialect !== 'claude-sdk-stream')
    .map((f) => ({ dialect, fixture: f.name, files: fixtureFiles(f) })),
);

/**
 * The case with every match of `pattern` replaced (a first match may be a copy the log supersedes
 * or a field no reader takes); undefined when none matches.
 */
function mutate(c: Case, pattern: RegExp, value: (m: RegExpExecArray) => string) {
  if (!c.files.some((f) => f.text.match(pattern))) return undefined;
  const files = c.files.map((f) => ({
    ...f,
    text: f.text.replace(pattern, (...m) => value(m as unknown as RegExpExecArray)),
  }));
  return { files };
}

async function parse(files: { name: string; text: string }[]): Promise<Session> {
  return parseSession(sourcesOf(files));
}

describe('out-of-range token counts in every dialect', () => {
  for (const [bad, shown] of [
    ['-984990', '-984990'],
    ['"12"', '"12"'],
    ['1e999', 'Infinity'],
  ] as const) {
    it(`${bad}: an issue naming the field and value, left out of the figures, nothing lost`, async () => {
      const problems: string[] = [];
      let mutated = 0;
      for (const c of cases) {
        const clean = await parse(c.files);
        // Cline's counts sit inside a JSON string: a string value's quotes are escaped there.
        const m = mutate(
          c,
          COUNT,
          (x) => `${x[1]}${x[1]!.startsWith('\\') ? bad.replaceAll('"', '\\"') : bad}`,
        );
        if (!m) continue;
        mutated++;
        const session = await parse(m.files);
        const at = `${c.fixture}`;
        const issue = session.issues.find((i) => i.code === 'out-of-range');
        if (!issue) problems.push(`${at}: no out-of-range issue`);
        else if (!issue.message.includes(shown) || !issue.path || issue.line < 1)
          problems.push(
            `${at}: the issue does not name the value ${shown}, the field and the line: ${JSON.stringify(issue)}`,
          );
        if (session.entries.length !== clean.entries.length)
          problems.push(
            `${at}: ${session.entries.length} entries, ${clean.entries.length} without the bad value`,
          );
        problems.push(...badFigures(session).map((b) => `${at}: ${b}`));
      }
      expect(problems).toEqual([]);
      expect(mutated).toBeGreaterThanOrEqual(8);
    });
  }
});

describe('implausible times in every dialect', () => {
  const times: [string, RegExp, (m: RegExpExecArray) => string][] = [
    ['9999', ISO_TIME, (m) => `${m[1]}"9999-12-31T00:00:00.000Z"`],
    ['1969', ISO_TIME, (m) => `${m[1]}"1969-12-31T23:59:59.000Z"`],
    ['0 ms', MS_TIME, (m) => `${m[1]}0`],
    ['8.64e15 + 1 ms (past the Date range)', MS_TIME, (m) => `${m[1]}8640000000000001`],
    ['1e20 ms', MS_TIME, (m) => `${m[1]}1e20`],
  ];
  for (const [what, pattern, value] of times) {
    it(`${what}: an issue, not the session's start or end; no call lost`, async () => {
      const problems: string[] = [];
      let mutated = 0;
      for (const c of cases) {
        const m = mutate(c, pattern, value);
        if (!m) continue;
        mutated++;
        const clean = await parse(c.files);
        const session = await parse(m.files);
        if (!session.issues.some((i) => i.code === 'out-of-range'))
          problems.push(`${c.fixture}: no out-of-range issue`);
        // Calls, not entries: with every time of a file bad, OpenCode cannot place a prune's event.
        if (session.apiCalls.length !== clean.apiCalls.length)
          problems.push(
            `${c.fixture}: ${session.apiCalls.length} calls, ${clean.apiCalls.length} without the bad time`,
          );
        problems.push(...badFigures(session).map((b) => `${c.fixture}: ${b}`));
      }
      expect(problems).toEqual([]);
      expect(mutated).toBeGreaterThanOrEqual(2);
    });
  }
});

describe('one implausible time among good ones', () => {
  it("is an issue at its line and leaves the session's span to the others", async () => {
    const tiny = fixtureFiles(FIXTURES['claude-code']![0]!)[0]!;
    const lines = tiny.text.trimEnd().split('\n');
    const clean = await parse([tiny]);
    const lastCall =
      lines.length - 1 - [...lines].reverse().findIndex((l) => l.includes('"type":"assistant"'));
    for (const [k, time] of [
      [2, '9999-12-31T00:00:00.000Z'],
      [lastCall, '1969-12-31T23:59:59.000Z'],
    ] as const) {
      const changed = lines.map((l, i) =>
        i === k ? l.replace(/"timestamp":"[^"]*"/, `"timestamp":"${time}"`) : l,
      );
      const session = await parse([{ name: 'tiny.jsonl', text: `${changed.join('\n')}\n` }]);
      expect(session.issues).toEqual([
        expect.objectContaining({
          line: k + 1,
          code: 'out-of-range',
          message: expect.stringContaining(time),
        }),
      ]);
      expect(session.meta.startMs).toBe(clean.meta.startMs);
      expect(session.meta.endMs).toBe(k === 2 ? clean.meta.endMs : session.meta.endMs);
      expect(session.meta.endMs! - session.meta.startMs!).toBeLessThanOrEqual(
        clean.meta.endMs! - clean.meta.startMs!,
      );
    }
  });
});
