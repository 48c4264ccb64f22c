import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLibraryRow } from '../../src/engine/library/library-row';
import { isPlausibleTimeMs } from '../../src/engine/parse/dialects/record';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';
import type { Fixture } from '../parse/dialect-fixtures';

// What a session's figures may never be, whatever the input: shared by the fault tests and the
// fuzz stage. A bad value in the log is an issue and is left out; it never becomes a figure.

const ROOT = join(__dirname, '../..');

/** A fixture's files as named text (the names without their folders, as the golden test reads them). */
export function fixtureFiles(fixture: Fixture): { name: string; text: string }[] {
  return fixture.files.map((f) =>
    typeof f === 'string' ? { name: f.split('/').pop() ?? f, text: readFileSync(join(ROOT, f), 'utf8') } : f,
  );
}

export const sourcesOf = (files: { name: string; text: string | Uint8Array }[]) =>
  files.map((f) => createMemorySource(f.name, f.text));

const isCount = (n: number) => Number.isFinite(n) && n >= 0;

/** Each figure of `session` that is NaN, negative, infinite or an implausible time, in words. */
export function badFigures(session: Session): string[] {
  const bad: string[] = [];
  const check = (what: string, n: number | undefined) => {
    if (n !== undefined && !isCount(n)) bad.push(`${what} = ${n}`);
  };
  for (const call of session.apiCalls) {
    check(`call ${call.index} context`, call.contextTokens);
    for (const [key, n] of Object.entries(call.usage)) check(`call ${call.index} ${key}`, n as number);
    if (call.timestampMs !== undefined && !isPlausibleTimeMs(call.timestampMs))
      bad.push(`call ${call.index} time ${call.timestampMs}`);
  }
  check('peak context', session.peakContextTokens);
  for (const e of session.entries)
    if (e.timestampMs !== undefined && !isPlausibleTimeMs(e.timestampMs))
      bad.push(`entry ${e.index} (line ${e.line}) time ${e.timestampMs}`);
  for (const key of ['startMs', 'endMs'] as const) {
    const ms = session.meta[key];
    if (ms !== undefined && !isPlausibleTimeMs(ms)) bad.push(`${key} ${ms}`);
  }
  const row = getLibraryRow(session);
  check('cost', row.costUsd);
  for (const [key, n] of Object.entries(row)) if (typeof n === 'number') check(`row ${key}`, n);
  return bad;
}
