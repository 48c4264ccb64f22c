import type {
  Compaction,
  DialectId,
  ParseIssue,
  SessionFile,
  SessionMeta,
  Severity,
  Session,
  TokenCount,
} from '../types';
import { type ContextWindowInference, getSessionWindow } from '../parse/context-window';
import type { Branch, BranchFork } from '../types';
import { type CompactionCounts, countCompactions } from '../parse/main-thread';
import { getShownMainFile } from '../parse/other-sessions';
import { getCallLanes } from './call-lanes';
import { isUnreadIssue } from '../parse-issue';
import { getUsageCoverage, type UsageCoverage, withEstimatedPost } from './usage-coverage';

/** The small, plain part of a session the UI keeps on the main thread (header, markers, knobs). */
export interface SessionOverview {
  format: DialectId;
  files: SessionFile[];
  /** The main file whose session is shown, to name it by (parse/other-sessions.ts `getShownMainFile`). */
  shownFileIndex?: number;
  meta: SessionMeta;
  entries: number;
  userTurns: number;
  apiCalls: number;
  mainApiCalls: number;
  toolCalls: Record<string, number>;
  toolPairs: Session['toolPairs'];
  /**
   * Every compaction of every file, by index (what a card and a row name). `postEstimated`: the call
   * after the boundary recorded no usage; `postTokens` is its estimate.
   */
  compactions: (Compaction & { postEstimated?: boolean })[];
  /** What the header counts: the main thread's by kind, the subagents' apart (parse/main-thread.ts). */
  compactionCounts: CompactionCounts;
  issueCounts: Record<Severity, number>;
  /** Of the issues, the lines and files not read (`isUnreadIssue`): what the session list's column counts. */
  unread: number;
  /** The first whole-file issue that says why the input is not a usable transcript. */
  notTranscript?: ParseIssue;
  unknownTypes: Record<string, number>;
  countsByType: Record<string, number>;
  peakContextTokens: TokenCount;
  sidechains: number;
  clearedToolResults: number;
  /** The session memory given with the transcript (the replay's default session-memory text). */
  sessionMemory?: Session['sessionMemory'];
  /** The context window and max output inferred from the log, with the reasons (engine/context-window). */
  window: ContextWindowInference;
  /** Main-thread calls without usage (usage-coverage.ts). */
  usage: UsageCoverage;
  /** The uuid tree's forks and branches, when it has any (parse/branches.ts). */
  branches?: { forks: BranchFork[]; branches: Branch[] };
}

const FATAL_CODES = new Set(['not-a-transcript', 'unsupported-dialect', 'empty-file', 'document-too-large']);

/** Summarizes a parsed session (cheap: counts are already on the session). */
export function getSessionOverview(session: Session): SessionOverview {
  const issueCounts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  let unread = 0;
  for (const issue of session.issues) {
    issueCounts[issue.severity]++;
    if (isUnreadIssue(issue)) unread++;
  }
  const lanes = getCallLanes(session);
  let mainApiCalls = 0;
  for (let i = 0; i < lanes.isMain.length; i++) mainApiCalls += lanes.isMain[i]!;
  const hasContent = session.entries.some((e) => e.kind === 'user' || e.kind === 'assistant');
  const notTranscript = hasContent ? undefined : session.issues.find((issue) => FATAL_CODES.has(issue.code));
  const usage = getUsageCoverage(session);
  return {
    format: session.format,
    files: session.files,
    shownFileIndex: getShownMainFile(session)?.index,
    meta: session.meta,
    entries: session.entries.length,
    userTurns: session.userTurns,
    apiCalls: session.apiCalls.length,
    mainApiCalls,
    toolCalls: session.toolCalls,
    toolPairs: session.toolPairs,
    // The same array when every call has usage (the summary stays the session's own data).
    compactions:
      usage.zeroUsageCalls > 0
        ? session.compactions.map((c) => withEstimatedPost(session, c))
        : session.compactions,
    compactionCounts: countCompactions(session),
    issueCounts,
    unread,
    notTranscript,
    unknownTypes: session.unknownTypes,
    countsByType: session.countsByType,
    peakContextTokens: session.peakContextTokens,
    sidechains: session.sidechains.length,
    clearedToolResults: session.cleared.size,
    ...(session.sessionMemory ? { sessionMemory: session.sessionMemory } : {}),
    window: getSessionWindow(session),
    usage,
    ...(session.branches
      ? { branches: { forks: session.branches.forks, branches: session.branches.branches } }
      : {}),
  };
}
