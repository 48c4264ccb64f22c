import { statSync } from 'node:fs';
import { type ByteSource, createReadAheadSource } from '../engine/parse/source';
import { createNodeFileSource } from './node-source';
import { findSessions } from './stats/find-sessions';

/** Sessions named in the error when a folder holds several. */
const LISTED = 5;

/**
 * The files a command reads for the paths it was given: a file as it is; a folder as the session
 * it holds (its transcript with its subagent and compaction-call files, grouped as the library
 * groups them). A folder of several sessions is an error that lists them: a command reads one
 * session, `compactlab stats` reads many.
 */
export async function openSessionFiles(paths: readonly string[]): Promise<ByteSource[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (!statSync(path).isDirectory()) {
      files.push(path);
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
  return files.map((p) => createReadAheadSource(createNodeFileSource(p)));
}
