import { baseName } from './detect';
import { describeTimeMs } from './dialects/record';
import type { ParseIssue, Session } from '../types';

// A session's content file (a Cline task's API history beside its UI log) written at other times
// than its main file is another session's: a task folder mixed from two tasks merged them without
// a word (269 entries became 407, the other task's model listed). The session is read again
// without it (parse-session.ts), and it is said, at the content file, with how to open it.

/** ours: a content file written an hour or more away from every main-file record is not its own. */
const MIXED_GAP_MS = 60 * 60 * 1000;

/** First and last record times of one file of the session; undefined when none has a time. */
export function spanOf(session: Session, fileIndex: number): [number, number] | undefined {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const e of session.entries) {
    if (e.fileIndex !== fileIndex || e.timestampMs === undefined) continue;
    first = Math.min(first, e.timestampMs);
    last = Math.max(last, e.timestampMs);
  }
  return first <= last ? [first, last] : undefined;
}

/** An issue for each content file whose records' times lie away from the main file's. */
export function findMixedContent(session: Session): ParseIssue[] {
  const main = session.files.find((f) => f.role === 'main');
  const mainSpan = main && spanOf(session, main.index);
  if (!main || !mainSpan) return [];
  const issues: ParseIssue[] = [];
  for (const file of session.files) {
    if (file.role !== 'content') continue;
    const span = spanOf(session, file.index);
    if (!span || (span[1] >= mainSpan[0] - MIXED_GAP_MS && span[0] <= mainSpan[1] + MIXED_GAP_MS)) continue;
    issues.push({
      fileIndex: file.index,
      line: 0,
      code: 'wrong-shape',
      severity: 'warning',
      message: `${baseName(file.name)} was written from ${describeTimeMs(span[0])} to ${describeTimeMs(span[1])}, away from ${baseName(main.name)} (${describeTimeMs(mainSpan[0])} to ${describeTimeMs(mainSpan[1])}): another session's file (a task folder mixed from two tasks?), left out of this one: open it alone to see that session`,
    });
  }
  return issues;
}
