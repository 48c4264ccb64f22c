import type {
  DialectId,
  Entry,
  FileRole,
  IssueCode,
  LoggedContextEdits,
  Severity,
  StatedTotals,
  TokenCount,
} from '../../types';

// What every dialect's record normalizer implements, and the small helpers they share. A
// normalizer knows record shapes only; files, detection and sessions belong to parse-session.ts
// and session-builder.ts.

export interface RecordContext {
  fileIndex: number;
  line: number;
  offsetBytes: number;
  lengthBytes: number;
  previewChars: number;
  /** The file's role in its session, when known (a Cline history beside its UI log is content). */
  role?: FileRole;
  issue(code: IssueCode, severity: Severity, message: string, path?: string): void;
}

/** What a record contributes beyond its entry (links the session builder needs). */
export interface RecordExtras {
  /** toolUseResult.agentId of a Task/Agent result: agent id → tool_use id. */
  spawnedAgentId?: string;
  /** First text of a string-content user message (sidechain roots are matched on it). */
  promptText?: string;
  /** Task/Agent tool_use prompt, for linking 1.0.x inline sidechains. */
  taskPrompts?: { toolUseId: string; prompt: string }[];
  version?: string;
  cwd?: string;
  gitBranch?: string;
  sessionId?: string;
  /** A model named by a record that is not itself a response (Codex `turn_context`). */
  model?: string;
  /** The model's context window as the log states it (Codex `model_context_window`). */
  contextWindow?: TokenCount;
  /** The provider the call went through, as the log names it (Cline's `modelInfo.providerId`). */
  provider?: string;
  /** A raw API request's `context_management.edits`. */
  contextEdits?: LoggedContextEdits;
  /**
   * The agent the records name when it is not the dialect's own: a claude-trace log's requests
   * name Claude Code (its user-agent, its system prompt), so the session is Claude Code's.
   */
  agent?: string;
  /**
   * The application that ran the agent and wrote its records in the agent's own format, when the
   * records say so (a gateway running an agent): its settings can differ from the agent's defaults.
   */
  host?: string;
  /** The context right after the latest compaction, as the agent estimated it (Codex). */
  compactedContextTokens?: TokenCount;
  /** Totals the record states for its run (the SDK stream's `result`): added to the session's. */
  statedTotals?: StatedTotals;
  /** A cost in USD the agent wrote on this record itself (Cline's request messages): summed. */
  statedCostUsd?: number;
  /** A name the record gives the session (parse/session-title.ts). */
  title?: TitleNote;
  /**
   * The session a prompt of a prompt log was typed in: the file holds a project's prompts over many
   * sessions (Gemini CLI's `logs.json`), so it is said as that, not as one session named by its first.
   */
  promptOf?: string;
}

/**
 * A session name a record states. Of a log's names, the highest `rank` wins, then the latest: a
 * person's rename over a generated title over a summary. Empty `text` takes back the names of its
 * rank (Codex's `thread_name` cleared). `leafUuid`: the name holds only when that entry is the
 * session's (Claude Code's `summary` records also name earlier sessions).
 */
export interface TitleNote {
  text: string;
  source: string;
  rank: number;
  leafUuid?: string;
}

export interface NormalizedRecord {
  /**
   * The record's entry; none when the normalizer holds what the record made for later (an
   * OpenCode step's parts wait for the step's call): it returns them in a later record's
   * `preceding`, or from `finish`.
   */
  entry?: Entry;
  extras: RecordExtras;
  /**
   * An event the record is the first to show, added just before its entry (Cline's truncation,
   * seen as a changed range on the next message): it takes `index` and the entry `index + 1`.
   */
  event?: Entry;
  /**
   * Entries the record holds before its own, in order (a raw API request: the messages its
   * conversation had not sent before): they take `index`, `index + 1`, … and the entry the next.
   */
  preceding?: Entry[];
}

/** One input dialect's record → entry mapping. Registered in `registry.ts`. */
export interface RecordNormalizer {
  readonly dialect: DialectId;
  /** The agent named in `Session.meta.agent`. */
  readonly agent: string;
  /**
   * Where API calls come from. `assistant-entries`: every assistant entry is (a streamed part
   * of) one response, deduplicated by message id (Claude Code). `usage-records`: a call is an
   * entry carrying `usage` (Codex `token_count`); assistant entries are not calls themselves.
   */
  readonly apiCalls: 'assistant-entries' | 'usage-records';
  /** Normalizes one parsed record. Never throws: shape problems become issues via `ctx`. */
  normalize(record: unknown, ctx: RecordContext, index: number): NormalizedRecord;
  /**
   * Called once after the session's last file, for what only the whole set can show (a shared
   * normalizer's message whose part files never came); `ctx.issue` reports at `ctx.fileIndex`.
   * Returns the entries it still held (numbered from `nextIndex`), added after all others.
   */
  finish?(ctx: RecordContext, nextIndex: number): Entry[] | undefined;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

/**
 * The first `max` characters, as a string that does not keep the whole text alive: V8 makes
 * `slice` a view into its parent, so a plain slice of a 1 MB tool output would pin the 1 MB.
 * Concatenating and slicing again flattens the view into a copy of `max + 1` characters.
 */
export function preview(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)} `.slice(0, -1) : text;
}

/**
 * `value` as JSON text, or '' when it is nested deeper than `JSON.stringify`'s recursion can go
 * (a tool input 5,000 objects deep): then a warning at `path`, and the record keeps its other
 * fields instead of failing whole.
 */
export function jsonText(value: unknown, ctx: RecordContext, path: string): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    ctx.issue(
      'unreadable-record',
      'warning',
      `At ${path}: nested too deep to show; the record is kept without it`,
      path,
    );
    return '';
  }
}

/** ours: a thousand times the largest context window; a count above it is not one. */
const MAX_TOKEN_COUNT = 1e10;

/** A value as an issue message shows it: JSON, cut to 40 characters. */
function shownValue(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * A token count the log states at `path`: a number from 0 to `MAX_TOKEN_COUNT`. Anything else (a
 * negative, a string, `1e999` read as Infinity) is an `out-of-range` issue naming the field and
 * the value, and counts 0: left out of the figures rather than taken as said. Absent is 0. Without
 * `ctx` (a second reading of a record already reported) the issue is not repeated.
 */
export function readTokenCount(value: unknown, path: string, ctx?: RecordContext): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && value >= 0 && value <= MAX_TOKEN_COUNT) return value;
  ctx?.issue(
    'out-of-range',
    'warning',
    `At ${path}: expected a token count (a number from 0), got ${shownValue(value)}; left out of the figures`,
    path,
  );
  return 0;
}

export const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

// A time a log states is believed only inside a plausible range: a Cline `ts` of 8.64e15 + 1 or an
// OpenCode `time.created` of 1e20 lies outside what a Date can hold ("Invalid time value" lost the
// session, the page showed "NaN-NaN-NaN"), and a `time.start` of 0 (a real OpenCode part), 1969
// or 9999 would make the session start in 1970 or last 8,000 years.

/** ours: 2015-01-01, years before the first of the agents whose logs are read. */
const EARLIEST_PLAUSIBLE_MS = Date.UTC(2015, 0, 1);
/** ours: 2100-01-01; later is a wrong clock or a bad value, not a session. */
const LATEST_PLAUSIBLE_MS = Date.UTC(2100, 0, 1);

export function isPlausibleTimeMs(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_PLAUSIBLE_MS && ms < LATEST_PLAUSIBLE_MS;
}

/** The issue message for an implausible time (`path`: its field, when known). */
export function implausibleTimeMessage(ms: number, path?: string): string {
  return `${path ? `At ${path}: ` : ''}time ${describeTimeMs(ms)} is outside 2015–2099: not believed, and it does not set the session's span`;
}

/** A time as a message shows it: ISO 8601 when a Date can hold it, else the number of ms. */
export function describeTimeMs(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
}

export function parseTimestamp(value: unknown, ctx: RecordContext): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  ctx.issue(
    'wrong-shape',
    'warning',
    `At timestamp: expected an ISO date string, got ${JSON.stringify(value)}`,
    'timestamp',
  );
  return undefined;
}

/** A blank entry at the context's position, filled in by a normalizer. */
export function createEntry(ctx: RecordContext, index: number): Entry {
  return {
    index,
    fileIndex: ctx.fileIndex,
    line: ctx.line,
    offsetBytes: ctx.offsetBytes,
    lengthBytes: ctx.lengthBytes,
    type: '',
    kind: 'unknown',
    isSidechain: false,
    isMeta: false,
    isCompactSummary: false,
    isVisibleInTranscriptOnly: false,
    isSynthetic: false,
    isApiError: false,
    blocks: [],
  };
}
