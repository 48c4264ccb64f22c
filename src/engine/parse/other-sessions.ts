import { baseName } from './detect';
import { describeTimeMs } from './dialects/record';
import { spanOf } from './mixed-files';
import type { ParseIssue, Session, SessionFile } from '../types';

// Two transcripts of different sessions opened together (two files picked at once, two chats of
// a Gemini CLI project, a prompt log beside a chat) were read as one: their entries interleaved,
// the second session drawn as a fork of the first. A main file is another session when the
// session id its records state first differs from those of the files kept, and nothing ties it to
// them: none of its records is a copy of theirs (a resumed or forked session's file copies its
// history, fold-copies.ts) and no parent link crosses between them. It is left out with the files
// of its session (a subagent log states its parent's session id), said at the file, and the
// session is read again without them (parse-session.ts), as a mixed task folder's file is; they
// are listed with the role `other-session`.

/** The main file read first: the session's own (entries come in read order, main files first). */
function firstMainIndex(session: Session): number | undefined {
  for (const e of session.entries) if (session.files[e.fileIndex]?.role === 'main') return e.fileIndex;
  return undefined;
}

/**
 * The main file whose session is shown, to name it: the first main file read that holds an entry,
 * else the first main file, else the first file. Several files named at once are each a main file
 * when nothing else names their role, and an empty or unreadable one named first holds no entry:
 * naming the session by the first main file put that file's name over the other file's content.
 */
export function getShownMainFile(session: Session): SessionFile | undefined {
  const first = firstMainIndex(session);
  return (
    (first === undefined ? undefined : session.files[first]) ??
    session.files.find((f) => f.role === 'main') ??
    session.files[0]
  );
}

/** Per file: its uuids and the uuids its records name as parents. */
function linksByFile(session: Session): { uuids: Set<string>[]; parents: Set<string>[] } {
  const uuids = session.files.map(() => new Set<string>());
  const parents = session.files.map(() => new Set<string>());
  for (const e of session.entries) {
    if (e.uuid !== undefined) uuids[e.fileIndex]?.add(e.uuid);
    if (typeof e.parentUuid === 'string') parents[e.fileIndex]?.add(e.parentUuid);
    if (e.logicalParentUuid !== undefined) parents[e.fileIndex]?.add(e.logicalParentUuid);
  }
  return { uuids, parents };
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) return true;
  return false;
}

/** First and last record times of a file, for the message. */
function spanText(session: Session, fileIndex: number): string {
  const span = spanOf(session, fileIndex);
  return span ? `, written ${describeTimeMs(span[0])} to ${describeTimeMs(span[1])}` : '';
}

/** An issue for each file of a session other than the first main file's; empty when none. */
export function findOtherSessions(session: Session): ParseIssue[] {
  const mains = session.files.filter((f) => f.role === 'main');
  if (mains.length < 2) return [];
  const first = firstMainIndex(session);
  const own = first === undefined ? undefined : session.files[first];
  if (!own?.sessionId) return [];
  const { uuids, parents } = linksByFile(session);
  const keptIds = new Set([own.sessionId]);
  const keptUuids = new Set(uuids[own.index]);
  const keptParents = new Set(parents[own.index]);
  const others = new Map<string, SessionFile>();
  for (const file of mains) {
    if (file === own || file.sessionId === undefined || keptIds.has(file.sessionId)) continue;
    const mine = uuids[file.index]!;
    const tied =
      (file.foldedCopies ?? 0) > 0 ||
      overlaps(parents[file.index]!, keptUuids) ||
      overlaps(keptParents, mine);
    if (tied) {
      keptIds.add(file.sessionId);
      for (const u of mine) keptUuids.add(u);
      for (const p of parents[file.index]!) keptParents.add(p);
    } else if (!others.has(file.sessionId)) others.set(file.sessionId, file);
  }
  const issues: ParseIssue[] = [];
  for (const file of session.files) {
    const main = file.sessionId === undefined ? undefined : others.get(file.sessionId);
    if (!main) continue;
    const what =
      file === main
        ? `${baseName(file.name)} is another session (${file.sessionId}${spanText(session, file.index)})`
        : `${baseName(file.name)} belongs to another session (${file.sessionId}, ${baseName(main.name)}'s)`;
    issues.push({
      fileIndex: file.index,
      line: 0,
      code: 'other-session',
      severity: 'warning',
      message: `${what} than ${baseName(own.name)}'s (${own.sessionId}): left out of it; open it alone`,
    });
  }
  return issues;
}
