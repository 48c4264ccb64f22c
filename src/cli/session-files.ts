import { existsSync, statSync } from 'node:fs';
import {
  expandOpenCodeDatabases,
  isOpenCodeDatabaseName,
  listOpenCodeDatabaseSessions,
  splitDatabaseName,
  walNameOf,
} from '../engine/parse/dialects/opencode/database';
import { type ByteSource, createReadAheadSource } from '../engine/parse/source';
import type { Session } from '../engine/types';
import { createNodeFileSource } from './node-source';
import { openSqlJsInNode } from './sqlite';
import { findSessionOf, findSessions } from './stats/find-sessions';

/** Sessions named in the error when a folder holds several. */
const LISTED = 5;

/**
 * The files a command reads for the paths it was given: a folder as the session it holds (its
 * transcript with its subagent and compaction-call files, grouped as the library groups them); a
 * transcript named alone as its session (the same files, `findSessionOf`); several files exactly
 * as named (the user's own pick: a main file without its subagents, one subagent with it). A
 * folder of several sessions is an error that lists them: a command reads one session,
 * `compactlab stats` reads many. An OpenCode database is the session it names
 * (`opencode.db#ses_…`) or its only one, read with its `-wal`.
 */
export async function openSessionFiles(paths: readonly string[]): Promise<ByteSource[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (isOpenCodeDatabaseName(path)) {
      // An OpenCode database (`opencode.db`, or `opencode.db#ses_…` for one of its sessions),
      // with its log when it is beside it.
      files.push(path);
      const wal = walNameOf(splitDatabaseName(path).dbPath);
      if (existsSync(wal) && !paths.includes(wal)) files.push(wal);
      continue;
    }
    if (!statSync(path).isDirectory()) {
      files.push(...(paths.length === 1 ? await findSessionOf(path) : [path]));
      continue;
    }
    const sessions = await findSessions([path]);
    if (sessions.length === 0) throw new Error(`${path} is a folder without a transcript in it`);
    if (sessions.length > 1) {
      const names = sessions.slice(0, LISTED).map((s) => `  ${s.file}`);
      if (sessions.length > LISTED) names.push(`  … and ${sessions.length - LISTED} more`);
      throw new Error(
        `${path} holds ${sessions.length} sessions; name one of them (its subagent files are found with it), or list them all with \`compactlab stats ${path}\`:\n${names.join('\n')}`,
      );
    }
    files.push(...sessions[0]!.paths);
  }
  // Read ahead: exports, the erosion chain and the secrets scan read entry after entry.
  const sources = await openPathSources(files);
  return sources.map((s) => createReadAheadSource(s));
}

/** Files on disk as sources, an OpenCode database as the session it names (`opencode.db#ses_…`). */
export function openPathSources(paths: readonly string[]): Promise<ByteSource[]> {
  return expandOpenCodeDatabases(paths.map(openNodeFile), openSqlJsInNode);
}

/**
 * The sessions of an OpenCode database on disk (with its `-wal` when beside it), named as
 * `openPathSources` reads them: `opencode.db#ses_…`.
 */
export async function listDatabaseSessionPaths(dbPath: string): Promise<string[][]> {
  const wal = walNameOf(dbPath);
  const sessions = await listOpenCodeDatabaseSessions(
    createNodeFileSource(dbPath),
    existsSync(wal) ? createNodeFileSource(wal) : undefined,
    openSqlJsInNode,
  );
  return sessions.map((s) => (existsSync(wal) ? [`${dbPath}#${s.id}`, wal] : [`${dbPath}#${s.id}`]));
}

/** A file on disk; a database's session (`opencode.db#ses_…`) is its database file so named. */
function openNodeFile(path: string): ByteSource {
  const { dbPath, sessionId } = splitDatabaseName(path);
  if (sessionId === undefined || !isOpenCodeDatabaseName(path)) return createNodeFileSource(path);
  return { ...createNodeFileSource(dbPath), name: path };
}

/** The parse's own word that its input is no transcript (a picture, a prompt history, UTF-16 text). */
const findRefusal = (session: Session) =>
  session.issues.find(
    (i) => i.severity === 'error' && (i.code === 'not-a-transcript' || i.code === 'unsupported-dialect'),
  );

/**
 * Why nothing of a session could be read, for the error of every command that opens one: the
 * parse's own word about the file (UTF-16 text with the iconv line that converts it, a picture, an
 * empty file: file-parse.ts), the words `inspect` lists among its issues, else that nothing could
 * be read. `report` said only the last for a UTF-16 file `inspect` named as one.
 */
export function describeNothingRead(session: Session): string {
  const why = findRefusal(session) ?? session.issues.find((i) => i.line === 0 && i.severity !== 'info');
  return why ? why.message : 'nothing could be read as a transcript';
}

/**
 * Why a session has no API call to replay, for a command's error: the parse's own word when the
 * input is no transcript at all (a picture, a prompt history) or nothing was read, else that its
 * transcript has none.
 */
export function describeNoCalls(session: Session): string {
  if (session.entries.length === 0) return describeNothingRead(session);
  const refused = findRefusal(session);
  return refused ? refused.message : 'no API call in this transcript: nothing to replay';
}
