import type { DialectId } from '../types';
import { CLAUDE_CODE_LIVE_LINES } from './claude-code-lines';
import { CODEX_CLI_LIVE_LINES } from './codex-cli-lines';
import type { Json } from './figure-updates';
import type { LiveFigures } from './live-figures';

// Which dialects' lines live figures read, one file each: adding one is a file and a line here.

/** How one dialect's appended records fold into live figures. */
export interface LiveLineReader {
  dialectId: DialectId;
  /** Whether a parsed record is this dialect's (asked in the list's order). */
  takes(record: Json): boolean;
  /**
   * Takes any record (a dialect with no marker on its every line): it names the log only when no
   * other reader did, as another dialect's stray lines pass through it.
   */
  catchAll?: boolean;
  add(figures: LiveFigures, record: Json, line: number): void;
}

/** In the order they are asked: the one that takes any record last. */
export const LIVE_LINE_READERS: readonly LiveLineReader[] = [CODEX_CLI_LIVE_LINES, CLAUDE_CODE_LIVE_LINES];
