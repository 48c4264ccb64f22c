import { existsSync } from 'node:fs';
import { parseArgs, UsageError } from './cli-args';
import { describeElement } from '../engine/parse/json-document';
import { searchSessionText } from '../engine/query/text-search';
import { SEARCH_USAGE } from './command-usage';
import { openPathSources } from './session-files';
import { findSessions } from './stats/find-sessions';
import { createProgress } from './progress';

// `compactlab search <folder>… <text>`: the library's search across sessions (the page's "Find in
// transcripts"), the same engine code (engine/query/text-search.ts), one session after another.

export async function searchCommand(args: string[], out: (text: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const query = positionals.at(-1);
  const paths = positionals.slice(0, -1);
  if (paths.length === 0 || query === undefined || query.trim() === '') {
    process.stderr.write(
      `compactlab search: name a folder (or files) and the text to find\n\n${SEARCH_USAGE}\n`,
    );
    return 2;
  }
  // `search <text> <folder>`, as grep takes them: the text was read as a path ("terraform: no such
  // file or folder"). Said with the command in the right order.
  const missing = paths.find((p) => !existsSync(p));
  if (missing !== undefined && existsSync(query)) {
    const quote = (word: string) => (/^[\w./~:@%+=,-]+$/.test(word) ? word : JSON.stringify(word));
    throw new UsageError(
      `${missing}: no such file or folder; the text to find comes last: compactlab search ${[...positionals.filter((p) => p !== missing), missing].map(quote).join(' ')}`,
    );
  }
  const sessions = await findSessions(paths);
  let matched = 0;
  // A folder of thousands of sessions takes a while: its count on a terminal, nothing elsewhere.
  const progress = createProgress('search', sessions.length);
  for (const s of sessions) {
    let line: string | undefined;
    try {
      const { matches, records, first } = await searchSessionText(await openPathSources(s.paths), query);
      if (matches > 0) matched++;
      if (matches > 0)
        line = values.json
          ? JSON.stringify({ file: s.file, matches, records, first })
          : `${s.file}: ${matches} ${matches === 1 ? 'match' : 'matches'} in ${records} ${records === 1 ? 'record' : 'records'}\n  ${first!.file}:${first!.line}${first!.element === undefined ? '' : ` (${describeElement(first!.element, first!.arrayKey)})`}: ${first!.excerpt}`;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      line = values.json
        ? JSON.stringify({ file: s.file, error: message })
        : `${s.file}: could not be read: ${message}`;
    }
    if (line !== undefined) {
      progress.clear();
      out(line);
    }
    progress.tick();
  }
  progress.clear();
  process.stderr.write(
    `${matched} of ${sessions.length} ${sessions.length === 1 ? 'session holds' : 'sessions hold'} "${query.trim()}"\n`,
  );
  return matched > 0 ? 0 : 1;
}
