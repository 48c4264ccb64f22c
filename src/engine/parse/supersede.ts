import type { SessionFile } from '../types';
import type { SessionBuilder } from './session-builder';

// For logs that append a record again each time it changes (`DialectFiles.supersedeKey`): the
// file's records are held until its end, then each key's latest copy takes its first copy's place.

export interface HeldRecord {
  record: unknown;
  line: number;
  offsetBytes: number;
  lengthBytes: number;
  key: string | undefined;
}

/**
 * The records of a file whose later records replace earlier ones with the same key: each key's
 * latest record at the place of its first copy; the replaced copies are counted on the file.
 */
function keepLatestCopies(held: readonly HeldRecord[], file: SessionFile): HeldRecord[] {
  const latest = new Map<string, HeldRecord>();
  for (const r of held) if (r.key !== undefined) latest.set(r.key, r);
  const placed = new Set<string>();
  const kept: HeldRecord[] = [];
  for (const r of held) {
    if (r.key === undefined) kept.push(r);
    else if (placed.has(r.key)) file.foldedCopies = (file.foldedCopies ?? 0) + 1;
    else {
      placed.add(r.key);
      kept.push(latest.get(r.key)!);
    }
  }
  return kept;
}

/**
 * Normalizes a file's held records (`normalize`) once the file is read. They come after the
 * file's lines that failed to parse: its issues (from `issuesBefore` on) are put back in line
 * order all the same (a stable sort).
 */
export function releaseHeld(
  held: readonly HeldRecord[],
  file: SessionFile,
  builder: SessionBuilder,
  issuesBefore: number,
  normalize: (r: HeldRecord) => void,
): void {
  if (held.length === 0) return;
  for (const r of keepLatestCopies(held, file)) normalize(r);
  const own = builder.issues.splice(issuesBefore).sort((a, b) => a.line - b.line);
  builder.issues.push(...own);
}
