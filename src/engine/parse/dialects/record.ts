import type { DialectId, Entry, IssueCode, LoggedContextEdits, Severity, TokenCount } from '../../types';

// What every dialect's record normalizer implements, and the small helpers they share. A
// normalizer knows record shapes only; files, detection and sessions belong to parse-session.ts
// and session-builder.ts.

export interface RecordContext {
  fileIndex: number;
  line: number;
  offsetBytes: number;
  lengthBytes: number;
  previewChars: number;
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
  /** A raw API request's `context_management.edits`. */
  contextEdits?: LoggedContextEdits;
  /**
   * The agent the records name when it is not the dialect's own: a claude-trace log's requests
   * name Claude Code (its user-agent, its system prompt), so the session is Claude Code's.
   */
  agent?: string;
  /** The context right after the latest compaction, as the agent estimated it (Codex). */
  compactedContextTokens?: TokenCount;
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

export const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

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
