// What the parse says of its input: a line it could not read, a value it did not believe, a file
// it left out. Kept, counted and shown beside the session (the bad-input rules: the rest still
// loads, the issue names the line and the reason).

export type Severity = 'error' | 'warning' | 'info';

export type IssueCode =
  /** A line that is not JSON at all. */
  | 'not-json'
  /** The file's last line ends mid-record (an interrupted write). */
  | 'truncated-line'
  /** A line whose bytes are not valid UTF-8; its record loads with U+FFFD in their place. */
  | 'invalid-utf8'
  /** Two records written onto one line by racing writers; both were recovered. */
  | 'concatenated-records'
  /** Valid JSON whose field has the wrong type; the message names the path. */
  | 'wrong-shape'
  /** The file was truncated while it was read: its size is what was read. */
  | 'file-shrunk'
  /** A valid JSON record that could not be read (nested deeper than the stack allows): skipped. */
  | 'unreadable-record'
  /** A value outside what it can be (bad usage, an impossible time): left out of the figures. */
  | 'out-of-range'
  /** A record type (or system subtype) the engine does not model; kept, counted and shown. */
  | 'unknown-record'
  /** The file as a whole is not a transcript the engine knows. */
  | 'not-a-transcript'
  /** A dialect that is recognised but not parsed yet. */
  | 'unsupported-dialect'
  | 'empty-file'
  /** A whole-document file (one JSON value, not JSON lines) larger than its dialect reads whole. */
  | 'document-too-large'
  /** The same uuid twice in one file: the later copy is kept and flagged. */
  | 'duplicate-uuid'
  /** The log records no usage at all (an early Codex rollout): no API call has a context. */
  | 'no-usage'
  /** Calls whose recorded output cannot hold their answer (usage of the stream's start). */
  | 'understated-output'
  /** The person stopped the read (Cancel of a load): the session holds the lines read before. */
  | 'read-stopped'
  /** A file of another session opened with this one: left out of it (parse/other-sessions.ts). */
  | 'other-session';

const UNREAD_FILE_CODES: ReadonlySet<IssueCode> = new Set([
  'not-a-transcript',
  'unsupported-dialect',
  'empty-file',
  'document-too-large',
]);

/**
 * What could not be read at all: a line that is no record (not JSON, or cut off mid-record) or a
 * file that is none (binary, empty, of no format we read). Their count is a plain count of the
 * files' bad lines and unread files, the one part of the issues a session list's scan (which skips
 * most lines) meets exactly; the other issues need the whole parse.
 */
export function isUnreadIssue(issue: Pick<ParseIssue, 'code'>): boolean {
  return issue.code === 'not-json' || issue.code === 'truncated-line' || UNREAD_FILE_CODES.has(issue.code);
}

export interface ParseIssue {
  fileIndex: number;
  /** 1-based line number within its file (0 for whole-file issues). */
  line: number;
  code: IssueCode;
  severity: Severity;
  message: string;
  /** JSON path of the offending value, e.g. `message.content[2].tool_use_id`. */
  path?: string;
}
