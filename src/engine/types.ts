// The engine's data model: what a parsed transcript is, independent of its dialect.
// Everything here is plain data (structured-clone safe) except `Session`, which stays in the
// worker (or the CLI process) and is queried through the functions in `query/`.

import type { ParseIssue } from './parse-issue';
export type { IssueCode, ParseIssue, Severity } from './parse-issue';

/** A count of tokens (API usage or an estimate; the field name says which). */
export type TokenCount = number;

/**
 * An input format: the `id` of a descriptor in `parse/dialects/registry.ts` (each dialect's folder,
 * `parse/dialects/<id>/`, exports its descriptor), or `UNKNOWN_DIALECT`. Open: a dialect edits no type here.
 */
export type DialectId = string;

/** The format of a file no descriptor recognised. */
export const UNKNOWN_DIALECT: DialectId = 'unknown';

/** Usage as recorded by the API for one response. */
export interface Usage {
  inputTokens: TokenCount;
  cacheCreationInputTokens: TokenCount;
  cacheReadInputTokens: TokenCount;
  outputTokens: TokenCount;
  /**
   * Of `cacheCreationInputTokens`, those written with the 1-hour lifetime, when the log says so
   * (Anthropic's `usage.cache_creation.ephemeral_1h_input_tokens`; absent when none).
   */
  cacheCreation1hInputTokens?: TokenCount;
}

/**
 * One content block, normalized. Long texts are kept as a preview (`text`) plus their full
 * length (`chars`); the full record is re-read from the file by offset when a view needs it.
 */
export type Block =
  | { kind: 'text'; text: string; chars: number }
  | {
      kind: 'thinking';
      text: string;
      chars: number;
      /**
       * Why its text is absent: `redacted`, an Anthropic `redacted_thinking` block (the reasoning
       * encrypted by the provider, in `data`); `not-kept`, a `thinking` block whose text the log
       * does not keep (Claude Code 2.1.x writes `"thinking": ""` beside its `signature`);
       * `encrypted`, a reasoning item held encrypted only (Codex `encrypted_content`, no summary).
       * Absent: the text is there (or the block is empty for no stated reason).
       */
      hidden?: 'redacted' | 'not-kept' | 'encrypted';
      /** Length of its encrypted form (`encrypted_content`, `redacted_thinking` data), summary or not. */
      encryptedChars?: number;
    }
  | {
      kind: 'tool-use';
      id: string;
      name: string;
      /** JSON of the input, preview-truncated. */
      inputPreview: string;
      inputChars: number;
      /** `file_path` / `path` / `notebook_path` of file tools, when present. */
      filePath?: string;
      /** Bash `command`, when present. */
      command?: string;
    }
  | {
      kind: 'tool-result';
      toolUseId: string;
      text: string;
      chars: number;
      isError: boolean;
      /** Images nested in the result's content. */
      images: number;
      /** A `<persisted-output>` stub: the real output was written to disk, not sent. */
      persisted: boolean;
    }
  | { kind: 'image'; mediaType: string; base64Chars: number }
  | { kind: 'document'; mediaType: string; base64Chars: number }
  | { kind: 'other'; type: string; chars: number };

export type EntryKind =
  | 'user'
  | 'assistant'
  | 'system'
  | 'attachment'
  | 'progress'
  /** Session metadata records: summary titles, file-history snapshots, queue operations, … */
  | 'meta'
  /** A record type the engine does not know. */
  | 'unknown';

export interface CompactMeta {
  trigger: string;
  preTokens?: TokenCount;
  /** 2.1.109+: the size of the summary alone. */
  postTokens?: TokenCount;
  /** 'history': `postTokens` counts the summary and the messages kept, not the summary alone. */
  postScope?: 'history';
  durationMs?: number;
  /** `truncate`: messages dropped without a summary (Cline's `conversationHistoryDeletedRange`). */
  kind?: 'compact' | 'truncate';
  /** The range of the model-facing history the agent no longer sends, inclusive. */
  deletedRange?: [number, number];
  /**
   * The call the event followed, as an index among its own file's calls, when the record that
   * shows it is written after later calls started (Cline shows a truncation on the messages after
   * the request it shortened); -1: before the file's first call. Absent: the latest call so far.
   */
  followsFileCall?: number;
  /** The entry that holds the summary when it comes before the event (Cline's condense). */
  summaryEntryIndex?: number;
  /** The first entry the agent still sends after the event (pi's `firstKeptEntryId`). */
  keptFromEntryIndex?: number;
  /**
   * The entries after the event hold the whole history the next request sent (a raw API request
   * list): what was sent restarts here, as after a compact boundary (query/usage-coverage.ts).
   */
  resendsHistory?: boolean;
}

export interface MicrocompactMeta {
  trigger: string;
  preTokens?: TokenCount;
  tokensSaved?: TokenCount;
  compactedToolIds: string[];
  clearedAttachmentUuids: string[];
}

export interface Entry {
  /** Position in `Session.entries`: the entry's id within a session. */
  index: number;
  fileIndex: number;
  /** 1-based line number in its file. */
  line: number;
  /** Where the raw line sits in its file, for the raw-JSON view. */
  offsetBytes: number;
  lengthBytes: number;
  /** The record's own `type` field ('' when absent). */
  type: string;
  subtype?: string;
  kind: EntryKind;
  uuid?: string;
  parentUuid?: string | null;
  logicalParentUuid?: string;
  timestampMs?: number;
  agentId?: string;
  isSidechain: boolean;
  isMeta: boolean;
  isCompactSummary: boolean;
  isVisibleInTranscriptOnly: boolean;
  /** Made locally, not by the API: Claude Code's `model: "<synthetic>"` (errors, interrupts), OpenClaw's `gateway-injected` replies. */
  isSynthetic: boolean;
  isApiError: boolean;
  role?: 'user' | 'assistant';
  blocks: Block[];
  messageId?: string;
  requestId?: string;
  model?: string;
  /** The provider the model ran through, where the log names it per response (pi's `provider`). */
  provider?: string;
  usage?: Usage;
  /** Index into `Session.apiCalls` (main thread) for assistant entries. */
  apiCallIndex?: number;
  /** For sidechain entries: the Task/Agent tool_use id that spawned them. */
  spawnedBy?: string;
  compact?: CompactMeta;
  microcompact?: MicrocompactMeta;
  /** A request that failed or was cancelled unanswered (no usage): not an API call (`failedRequests`). */
  failedRequest?: { reason: string; detail?: string };
  /** Attachment records: `attachment.type`; progress records: `data.type`. */
  detailType?: string;
  /** Where its message sits in a record that holds several: a raw request's `messages[3]`, `content`. */
  recordPath?: string;
  /** A one-line description of non-message records (system content, attachment file path, …). */
  summaryText?: string;
}

/** One API response, deduplicated over its streamed lines (by message id, then request id). */
export interface ApiCall {
  index: number;
  messageId?: string;
  requestId?: string;
  model: string;
  /** Its response's provider, where the log names one (an agent's window can depend on it). */
  provider?: string;
  fileIndex: number;
  firstEntryIndex: number;
  lastEntryIndex: number;
  /** uuid of the last entry of the response: the entry a compaction event "follows". */
  uuid?: string;
  line: number;
  timestampMs?: number;
  usage: Usage;
  /** input + cache creation + cache read: the size of the context sent with this call. */
  contextTokens: TokenCount;
}

/**
 * A request the agent sent that brought back no answer: failed (an HTTP error, a stream that broke)
 * or cancelled before the model's usage came. Its usage is all zeros, so it has no context and is no
 * API call: call numbers and the context series run over real calls only.
 */
export interface FailedRequest {
  /** The entry that records it (Cline's `api_req_started`, pi's assistant message). */
  entryIndex: number;
  fileIndex: number;
  line: number;
  timestampMs?: number;
  /** As the log names it: Cline's `cancelReason` (`streaming_failed`, `user_cancelled`), pi's `stopReason` (`error`, `aborted`). */
  reason: string;
  /** The error the log gives with it, cut to a preview (pi's `errorMessage`). */
  detail?: string;
  /** The last API call before it (index into `Session.apiCalls`); −1 before the first. */
  afterApiCall: number;
}

export interface Compaction {
  /** `truncate`: older messages dropped without a summary (Cline's context truncation). */
  kind: 'compact' | 'microcompact' | 'truncate';
  entryIndex: number;
  fileIndex: number;
  uuid?: string;
  line: number;
  timestampMs?: number;
  trigger: string;
  preTokens?: TokenCount;
  /** Context of the first API call after the boundary (what the next request really carried). */
  postTokens?: TokenCount;
  /**
   * The summary alone: `compactMetadata.postTokens` (Claude Code 2.1.109+), or Codex's estimate
   * of its replacement history (the zero-input `token_count` right after `compacted`).
   */
  summaryTokens?: TokenCount;
  /** 'history': `summaryTokens` counts the summary and the messages kept (Codex, Gemini CLI). */
  summaryScope?: 'history';
  durationMs?: number;
  /** Last main-thread API call before the boundary, and the first one after it. */
  apiCallBefore?: number;
  apiCallAfter?: number;
  /** The `isCompactSummary` user entry that carries the summary. */
  summaryEntryIndex?: number;
  /** The first entry still sent after the event (pi's `firstKeptEntryId`): the kept range starts here. */
  keptFromEntryIndex?: number;
  /** Entries re-attached after the summary (files, plan, skills, /compact command lines). */
  reattachedEntryIndices: number[];
  /** `/compact <instructions>` arguments, when the log shows them. */
  customInstructions?: string;
  /** The compaction call's own log (`agent-acompact-*.jsonl`) when it was opened too, and its usage. */
  callFileIndex?: number;
  /** The summary call's own usage (not the sum of every call in that log; see `callCost`). */
  callUsage?: Usage;
  /** Every call the compaction call's log holds, and which one produced the summary. */
  callCost?: CompactionCallCost;
  /** The range of the model-facing history no longer sent, inclusive (Cline, docs/sources.md#fmt-cline). */
  deletedRange?: [number, number];
  /** Microcompact only. */
  tokensSaved?: TokenCount;
  clearedToolIds?: string[];
}

/** `content`: records kept for reading whose calls, tools, turns and events the main file counts. */
export type FileRole =
  | 'main'
  | 'subagent'
  | 'compaction-call'
  | 'side-question'
  | 'content'
  | 'session-memory'
  /** Claude Code's `agent-<id>.meta.json` next to a subagent log: metadata, not a transcript. */
  | 'subagent-meta'
  /** Another session's file opened with this one: listed, not read (parse/other-sessions.ts). */
  | 'other-session';

/** One API call of a compaction call's log (`agent-acompact-*.jsonl`), deduplicated over its lines. */
export interface CompactionCallUsage {
  /** Entry and line of the call's first streamed line. */
  entryIndex: number;
  line: number;
  messageId?: string;
  usage: Usage;
  contextTokens: TokenCount;
  /** Characters of the call's text, thinking and tool input: what the output tokens should cover. */
  outputChars: number;
  /** The recorded output is a streamed partial snapshot (far below chars/4), not the call's total. */
  partial: boolean;
}

export interface CompactionCallCost {
  calls: CompactionCallUsage[];
  /** Index into `calls` of the call that produced the summary. */
  summaryCall: number;
}

/** Claude Code's session memory (`<session-id>/session-memory/summary.md`): plain text, not records. */
export interface SessionMemory {
  /** The file's name as given. */
  name: string;
  text: string;
  chars: number;
}

export interface SessionFile {
  index: number;
  name: string;
  sizeBytes: number;
  lines: number;
  role: FileRole;
  /** From the file name (`agent-<id>.jsonl`) or the records' `agentId`. */
  agentId?: string;
  dialect: DialectId;
  /** A subagent file opened without its parent: its sidechain entries are read as the main thread. */
  openedAlone?: boolean;
  /** Records of this file dropped as copies of records another file holds (same uuid; main wins). */
  foldedCopies?: number;
  /** From the subagent's `.meta.json`: `agentType` ("Explore", "general-purpose", "fork", …). */
  agentType?: string;
  /** From the subagent's `.meta.json`: the Task/Agent call's `description`. */
  agentDescription?: string;
  /** The session id its records state first (other-sessions.ts: whose session the file is). */
  sessionId?: string;
  /** What the file is when its records say it is an agent's file but no session (a prompt history). */
  notSession?: string;
}

export interface SessionMeta {
  agent: string;
  versions: string[];
  models: string[];
  /** Models the log was set to (`RecordExtras.model`: pi's `model_change`) of which no call answered. */
  setModels?: string[];
  sessionId?: string;
  cwd?: string;
  gitBranch?: string;
  startMs?: number;
  endMs?: number;
  /** The model's context window as the log states it (Codex `model_context_window`). */
  contextWindow?: TokenCount;
  /** The providers the main thread's calls went through (Cline's `providerId`). */
  providers?: string[];
  /** The application that ran the agent and wrote the log in its format (`RecordExtras.host`). */
  host?: string;
  /** The `context_management.edits` a raw API request states (the main conversation's first). */
  contextEdits?: LoggedContextEdits;
  /** What the log states as its own totals (the Agent SDK stream's `result` records), summed over its runs. */
  statedTotals?: StatedTotals;
  /** The costs the agent wrote on its records, summed as the agent sums them (Cline, OpenCode, pi). */
  statedCost?: { usd: number; records: number };
  /** The session's name as the agent's own session list shows it (parse/session-title.ts). */
  title?: SessionTitle;
  /** A prompt log's (a project's prompts over many sessions, no calls: RecordExtras.promptOf) counts. */
  promptLog?: { prompts: number; sessions: number };
  /** The read was stopped (Cancel that keeps what was read): the bytes read of all the files. */
  partialRead?: { bytesRead: number; totalBytes: number };
}

/** A session's name, and the record that gave it. */
export interface SessionTitle {
  text: string;
  /** The record: `custom-title`, `ai-title`, `summary` (Claude Code), `thread_name_updated` (Codex), … */
  source: string;
  /** 1-based line of that record in its file. */
  line: number;
}

/**
 * Totals a log states itself, as opposed to what the engine adds up from its calls: the Agent SDK
 * stream's `result` record, one per run (`claude -p`, a `query()` call), each for that run alone
 * (docs/sources.md#fmt-sdk-stream). The session's are their sum.
 */
export interface StatedTotals {
  /** The records that stated them. */
  runs: number;
  /** Of those, runs that ended in an error (`is_error`, or a subtype other than `success`). */
  errors: number;
  /** The main thread's calls (the stream's `usage`: subagents not included). */
  usage: Usage;
  /** The agent's own estimate (`total_cost_usd`: every model, subagents included); absent when no run states it. */
  costUsd?: number;
  /** Turns (`num_turns`). */
  turns: number;
  /** Wall time and API time (`duration_ms`, `duration_api_ms`). */
  durationMs: number;
  durationApiMs: number;
}

/**
 * A request's `context_management.edits`, as the log states them (platform.claude.com "Context
 * editing" and "Compaction"): each edit listed, with what it sets; a field absent: the API's default.
 */
export interface LoggedContextEdits {
  /** `clear_thinking_20251015`: `keep: {type: "thinking_turns", value}` or `keep: "all"`. */
  clearThinking?: { keepTurns?: number; keepAll?: boolean };
  /** `clear_tool_uses_20250919`: `trigger`, `keep`, `clear_at_least` (input tokens / tool uses), `exclude_tools`. */
  clearToolUses?: {
    triggerTokens?: TokenCount;
    keepToolUses?: number;
    clearAtLeastTokens?: TokenCount;
    excludeTools?: string[];
  };
  /** `compact_20260112`: `trigger`, `instructions`, `pause_after_compaction`. */
  compaction?: { triggerTokens?: TokenCount; instructions?: string; pauseAfterCompaction?: boolean };
}

/** Cleared state of a tool result, applied by tool id from a microcompact boundary onward. */
interface ClearedToolResult {
  toolUseId: string;
  /** Index into `Session.compactions` of the boundary that cleared it. */
  compactionIndex: number;
}

export interface Sidechain {
  /** The tool_use (Task/Agent) that spawned it, when it could be linked. */
  spawnedBy?: string;
  agentId?: string;
  fileIndex: number;
  entryIndices: number[];
  apiCalls: number;
  peakContextTokens: TokenCount;
  /** Usage summed over its deduplicated API calls (a compaction's own cost is `Compaction.callUsage`). */
  usage: Usage;
}

/** A parsed transcript (one main file plus any subagent files dropped with it). */
export interface Session {
  format: DialectId;
  files: SessionFile[];
  entries: Entry[];
  apiCalls: ApiCall[];
  /** Main-thread requests that failed or were cancelled before an answer: not in `apiCalls`. */
  failedRequests?: FailedRequest[];
  compactions: Compaction[];
  issues: ParseIssue[];
  countsByType: Record<string, number>;
  unknownTypes: Record<string, number>;
  meta: SessionMeta;
  toolCalls: Record<string, number>;
  toolPairs: { matched: number; unmatchedUses: number; unmatchedResults: number };
  userTurns: number;
  /**
   * What a person first asked, as it reads (wrappers removed, a command as typed); a bare command
   * (`/clear`) only when no prompt follows it. Cut to the parse's `previewChars`.
   */
  firstPrompt?: string;
  peakContextTokens: TokenCount;
  /** tool_use id → cleared state (microcompact). */
  cleared: Map<string, ClearedToolResult>;
  /** tool_use id → entry index of the assistant entry holding the tool_use. */
  toolUseEntry: Map<string, number>;
  /** tool_use id → entry index of the user entry holding the tool_result. */
  toolResultEntry: Map<string, number>;
  sidechains: Sidechain[];
  /** The session memory dropped or given with the transcript, used as a summary by the replay. */
  sessionMemory?: SessionMemory;
  /** The uuid tree's forks (rewinds, edited prompts, retries); absent when it has none (parse/branches.ts). */
  branches?: SessionBranches;
}

// The uuid tree's forks (computed by parse/branches.ts, which says what following a branch means).

export interface BranchFork {
  /** The last entry the branches share. */
  entryIndex: number;
  /** The branches that leave it, in file order of their first entries. */
  branchIds: number[];
  /** Their first entries after the fork (parallel to `branchIds`). */
  childEntryIndices: number[];
  /** Each one's first prompt after the fork, cut to a preview (parallel to `branchIds`). */
  childPreviews: string[];
  /** Main-thread API calls under each one (parallel to `branchIds`). */
  childApiCalls: number[];
  /** The branch that went on: the one holding the main line, else the one written last. */
  continuedBranchId: number;
}

export interface Branch {
  id: number;
  /** First entry of the branch's own segment (the root for the main line). */
  startEntryIndex: number;
  leafEntryIndex: number;
  /** The fork it leaves from (index into `forks`); −1 for the main line. */
  forkIndex: number;
  /** The branch it forked off; −1 for the main line. */
  parentBranchId: number;
  isMainLine: boolean;
  /** Main-thread API calls whose first entry is in the segment. */
  apiCalls: number;
  /** The segment's first user prompt, cut to a preview (plain text, never HTML). */
  preview: string;
  startTimestampMs?: number;
}

export interface SessionBranches {
  forks: BranchFork[];
  /** `branches[0]` is the main line. */
  branches: Branch[];
  /** Branch per entry; −1 for entries outside the tree (no uuid, subagents). */
  branchOfEntry: Int32Array;
  /** Effective parent per entry (−1: root or outside the tree). */
  parentOfEntry: Int32Array;
}
