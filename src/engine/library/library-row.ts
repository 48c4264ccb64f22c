import { computeCostUsd, type PriceOverrides } from '../cost/prices';
import { getStatedCostUsd } from '../parse/stated-cost';
import {
  getCallUsage,
  getSessionCalls,
  getUsageBuckets,
  type SessionCall,
  type UsageBucket,
} from '../cost/session-calls';
import { DIALECT_INFOS } from '../parse/dialects/descriptors';
import { type CompactionCounts, countCompactions, isMainThreadCompaction } from '../parse/main-thread';
import { isUnreadIssue, type ParseIssue } from '../parse-issue';
import type { Session, TokenCount } from '../types';

// One session as the library lists it. Built from a `Session` by `getLibraryRow`, the same
// function whether the session came from the scan (`scan-session.ts`) or the full parse, so the
// two agree wherever the scan kept the records a figure needs.

export interface LibraryRow {
  agent: string;
  versions: string[];
  models: string[];
  cwd?: string;
  sessionId?: string;
  /** What the person first asked, cut to `FIRST_PROMPT_CHARS`. */
  firstPrompt?: string;
  /** The session's name as the agent lists it (parse/session-title.ts). */
  title?: string;
  /** The file is a prompt log (parse/meta-words.ts): its prompts and the sessions they were typed in. */
  promptLog?: { prompts: number; sessions: number };
  startMs?: number;
  endMs?: number;
  /** Deduplicated API calls of the main thread. */
  apiCalls: number;
  /** API calls of subagent, side-question and compaction-call files. */
  sidechainCalls: number;
  peakContextTokens: TokenCount;
  /** The context of the main thread's last call (where the next compaction is measured from). */
  lastContextTokens: TokenCount;
  compactions: CompactionCounts;
  /** Context of the main thread's last calls, oldest first (the live forecast's pace). */
  recentContexts: TokenCount[];
  /** Main-thread calls before the latest full compaction (its call index + 1); 0 when none. */
  callsBeforeLastCompact: number;
  /** The window the log states (Codex), else undefined. */
  contextWindow?: TokenCount;
  /** Transcript files other than the main one (subagents, side questions, compaction calls). */
  subagentFiles: number;
  issues: number;
  /**
   * The first unread line or file (else the first error the parse met, else its first issue), as "line N:
   * why" (cut at ISSUE_CHARS): what the list says of a broken log without opening it. Absent when none.
   */
  firstIssue?: string;
  /** Line-level errors (`not-json`, `truncated-line`). */
  brokenLines: number;
  /**
   * Lines and files that could not be read (`isUnreadIssue`): the part of `issues` a scan meets
   * exactly, a plain count. The list's column shows this, not `issues`.
   */
  unread: number;
  /** USD at list prices over every priced call, each counted once across files. */
  costUsd: number;
  /** Calls whose model has no price (their cost is not in `costUsd`). */
  unpricedCalls: number;
  /** The agent's own figure where its log states one (Cline's task cost; the SDK stream's total). */
  statedCostUsd?: number;
  /** The calls by quarter hour and model: the library's usage by day and project (stats/usage.ts). */
  usage: UsageBucket[];
  /**
   * What the main file is when its records say it is an agent's file but no session (a prompt
   * history kept outside the agent's folder: `CLAUDE_CONFIG_DIR`, `CODEX_HOME`): the list and
   * `stats` leave it out, saying so.
   */
  notSession?: string;
}

export const FIRST_PROMPT_CHARS = 200;
/** Ours: a list cell's hint, not the session's issue list (which keeps each whole). */
const ISSUE_CHARS = 200;

function describeFirstIssue(issues: readonly ParseIssue[]): { firstIssue?: string } {
  const first = issues.find(isUnreadIssue) ?? issues.find((i) => i.severity === 'error') ?? issues[0];
  if (!first) return {};
  const where = first.line > 0 ? `line ${first.line}: ` : '';
  const text = `${where}${first.message}`;
  return { firstIssue: text.length > ISSUE_CHARS ? `${text.slice(0, ISSUE_CHARS - 1)}…` : text };
}
/** Calls kept for the pace of the live forecast. */
const RECENT_CALLS = 12;

/** A session's list figures. `overrides` replaces list prices (by price key). */
export function getLibraryRow(session: Session, overrides?: PriceOverrides): LibraryRow {
  // The main thread's, the subagents' said apart: the header's and `stats`' one rule (parse/main-thread.ts).
  const compactions = countCompactions(session);
  let callsBeforeLastCompact = 0;
  for (const c of session.compactions) {
    if (c.kind === 'compact' && isMainThreadCompaction(session, c))
      callsBeforeLastCompact = c.apiCallBefore === undefined ? 0 : c.apiCallBefore + 1;
  }
  let sidechainCalls = 0;
  for (const s of session.sidechains) sidechainCalls += s.apiCalls;
  const firstPrompt = session.firstPrompt?.slice(0, FIRST_PROMPT_CHARS).trimEnd();
  const calls = getSessionCalls(session);
  const cost = computeSessionCost(calls, overrides);
  const stated = getStatedCostUsd(session.meta);
  // The files one shared normalizer reads (OpenCode's file per record) are one log.
  const shared = new Set(DIALECT_INFOS.filter((d) => d.sharedNormalizer).map((d) => d.id));
  const counted = new Set<string>();
  const transcripts = session.files.filter((f) => {
    if (f.role === 'session-memory' || f.role === 'subagent-meta') return false;
    if (!shared.has(f.dialect)) return true;
    if (counted.has(f.dialect)) return false;
    counted.add(f.dialect);
    return true;
  });
  return {
    agent: session.meta.agent,
    versions: [...session.meta.versions],
    models: [...session.meta.models],
    cwd: session.meta.cwd,
    sessionId: session.meta.sessionId,
    firstPrompt,
    ...(session.meta.title ? { title: session.meta.title.text } : {}),
    ...(session.meta.promptLog ? { promptLog: { ...session.meta.promptLog } } : {}),
    startMs: session.meta.startMs,
    endMs: session.meta.endMs,
    apiCalls: session.apiCalls.length,
    sidechainCalls,
    peakContextTokens: session.peakContextTokens,
    lastContextTokens: session.apiCalls.at(-1)?.contextTokens ?? 0,
    compactions,
    recentContexts: session.apiCalls.slice(-RECENT_CALLS).map((c) => c.contextTokens),
    callsBeforeLastCompact,
    contextWindow: session.meta.contextWindow,
    subagentFiles: Math.max(0, transcripts.length - 1),
    issues: session.issues.length,
    ...describeFirstIssue(session.issues),
    brokenLines: session.issues.filter((i) => i.code === 'not-json' || i.code === 'truncated-line').length,
    unread: session.issues.filter(isUnreadIssue).length,
    costUsd: cost.usd,
    unpricedCalls: cost.unpriced,
    ...(stated === undefined ? {} : { statedCostUsd: stated }),
    usage: getUsageBuckets(calls, overrides),
    ...(session.files[0]?.notSession ? { notSession: session.files[0].notSession } : {}),
  };
}

/** Cost at list prices of the session's calls (each once over all its files: cost/session-calls.ts). */
function computeSessionCost(
  calls: readonly SessionCall[],
  overrides?: PriceOverrides,
): { usd: number; unpriced: number } {
  let usd = 0;
  let unpriced = 0;
  for (const c of calls) {
    const cost = computeCostUsd(c.model, getCallUsage(c), overrides);
    if (cost === undefined) unpriced++;
    else usd += cost;
  }
  return { usd, unpriced };
}
