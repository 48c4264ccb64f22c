import { at } from '../assert';
import type {
  ApiCall,
  Compaction,
  DialectId,
  ParseIssue,
  Session,
  SessionFile,
  StatedTotals,
  TokenCount,
  Usage,
  SessionTitle,
} from '../types';
import { countFoldedCopies } from '../parse/fold-copies';
import { getShownMainFile } from '../parse/other-sessions';

// The inspect report: the plain-data analysis the CLI prints (`compactlab inspect --json`) and
// the UI's session header shows. Built from a Session; no I/O.

interface ReportApiCall {
  index: number;
  messageId?: string;
  requestId?: string;
  model: string;
  line: number;
  uuid?: string;
  timestamp?: string;
  usage: Usage;
  contextTokens: TokenCount;
}

interface ReportCompaction {
  kind: Compaction['kind'];
  trigger: string;
  preTokens?: TokenCount;
  postTokens?: TokenCount;
  summaryTokens?: TokenCount;
  /** 'history': `summaryTokens` counts the summary and the messages kept, as the agent counted them. */
  summaryScope?: 'history';
  tokensSaved?: TokenCount;
  clearedToolIds?: string[];
  /** `truncate` and Cline's condense: the range of the model-facing history no longer sent. */
  deletedRange?: [number, number];
  uuid?: string;
  line: number;
  file: string;
  timestamp?: string;
  /** The API call the event followed, and the first one it shaped. */
  apiCallBefore?: number;
  apiCallAfter?: number;
  summaryLine?: number;
  reattached: number;
  customInstructions?: string;
  /**
   * What the compaction cost, when its log (`agent-acompact-*.jsonl`) was opened too: the summary
   * call's own usage, every call the log holds, and whether that usage is a streamed partial.
   */
  compactionCall?: ReportCompactionCall;
}

interface ReportCompactionCall {
  file: string;
  usage: Usage;
  /** The summary call's recorded output is a partial snapshot (far below its text's chars/4). */
  partial: boolean;
  calls: {
    line: number;
    messageId?: string;
    usage: Usage;
    contextTokens: TokenCount;
    outputChars: number;
    partial: boolean;
    summary: boolean;
  }[];
}

export interface InspectReport {
  format: DialectId;
  files: Pick<
    SessionFile,
    'name' | 'sizeBytes' | 'lines' | 'role' | 'agentId' | 'dialect' | 'foldedCopies' | 'agentType'
  >[];
  /** The name of the main file whose session this is (`getShownMainFile`): the one to name it by. */
  mainFile?: string;
  /** The main file is a sub-agent's transcript opened without its parent session. */
  subagentTranscript?: { agentId?: string; agentType?: string };
  /** Records of subagent files dropped as copies of the main thread's (same uuid). */
  foldedCopies: number;
  agent: string;
  versions: string[];
  models: string[];
  /** No call answered: the models the log was set to (`SessionMeta.setModels`). */
  setModels?: string[];
  sessionId?: string;
  /** The session's name as the agent lists it, and the record that gave it. */
  title?: SessionTitle;
  /** The file is a prompt log (parse/meta-words.ts): its prompts and the sessions they were typed in. */
  promptLog?: { prompts: number; sessions: number };
  cwd?: string;
  gitBranch?: string;
  /** The model's context window when the log states it (Codex). */
  contextWindow?: TokenCount;
  /** Totals the log states itself, summed over its runs (the Agent SDK stream's `result` records). */
  statedTotals?: StatedTotals;
  /** The costs the agent wrote on its records, summed (Cline's task cost). */
  statedCost?: { usd: number; records: number };
  start?: string;
  end?: string;
  durationMs?: number;
  entries: number;
  userTurns: number;
  countsByType: Record<string, number>;
  systemSubtypes: Record<string, number>;
  unknownTypes: Record<string, number>;
  /** Tool calls by name, every thread's (the main thread's and its sidechains'). */
  toolCalls: Record<string, number>;
  /** Tool pairs of every thread; `toolPairsByThread` splits them when the session has sidechains. */
  toolPairs: Session['toolPairs'];
  /**
   * The same pairs by thread: a pair (or a call without result) where its call is, a result
   * without call where the result is; a sidechain is a subagent's (or compaction call's) file or
   * 1.0.x inline `isSidechain` records. Absent when the session has no sidechain.
   */
  toolPairsByThread?: { main: Session['toolPairs']; sidechains: Session['toolPairs'] };
  issues: (Omit<ParseIssue, 'fileIndex'> & { file: string })[];
  issueCounts: { error: number; warning: number; info: number };
  apiCalls: ReportApiCall[];
  /** Requests that failed or were cancelled before an answer (no usage): not API calls. Absent when none. */
  failedRequests?: {
    line: number;
    file: string;
    timestamp?: string;
    reason: string;
    detail?: string;
    /** The last API call before it; −1 before the first. */
    afterApiCall: number;
  }[];
  compactions: ReportCompaction[];
  clearedToolResults: number;
  peakContextTokens: TokenCount;
  sidechains: {
    agentId?: string;
    file: string;
    role: string;
    spawnedBy?: string;
    agentType?: string;
    description?: string;
    entries: number;
    apiCalls: number;
    peakContextTokens: TokenCount;
    usage: Usage;
  }[];
}

/** `toolPairsByThread`: the session's tool pairs split between the main thread and its sidechains. */
function splitToolPairs(session: Session): InspectReport['toolPairsByThread'] {
  if (session.sidechains.length === 0) return undefined;
  const inSidechain = new Set<number>();
  for (const s of session.sidechains) for (const i of s.entryIndices) inSidechain.add(i);
  const main = { matched: 0, unmatchedUses: 0, unmatchedResults: 0 };
  const sidechains = { matched: 0, unmatchedUses: 0, unmatchedResults: 0 };
  for (const [id, entry] of session.toolUseEntry) {
    const thread = inSidechain.has(entry) ? sidechains : main;
    if (session.toolResultEntry.has(id)) thread.matched++;
    else thread.unmatchedUses++;
  }
  for (const [id, entry] of session.toolResultEntry)
    if (!session.toolUseEntry.has(id)) (inSidechain.has(entry) ? sidechains : main).unmatchedResults++;
  return { main, sidechains };
}

const iso = (ms: number | undefined): string | undefined =>
  ms === undefined ? undefined : new Date(ms).toISOString();

function reportCall(call: ApiCall): ReportApiCall {
  return {
    index: call.index,
    messageId: call.messageId,
    requestId: call.requestId,
    model: call.model,
    line: call.line,
    uuid: call.uuid,
    timestamp: iso(call.timestampMs),
    usage: call.usage,
    contextTokens: call.contextTokens,
  };
}

function reportCompactionCall(session: Session, c: Compaction): ReportCompactionCall | undefined {
  if (c.callFileIndex === undefined || !c.callUsage) return undefined;
  const file = session.files[c.callFileIndex]?.name ?? `#${c.callFileIndex}`;
  const cost = c.callCost;
  const calls = (cost?.calls ?? []).map((call, i) => ({
    line: call.line,
    messageId: call.messageId,
    usage: call.usage,
    contextTokens: call.contextTokens,
    outputChars: call.outputChars,
    partial: call.partial,
    summary: i === cost!.summaryCall,
  }));
  return { file, usage: c.callUsage, partial: calls.find((x) => x.summary)?.partial ?? false, calls };
}

/** The main file when it is a sub-agent's log opened alone (its name or records give an agent id). */
function getSubagentTranscript(session: Session): InspectReport['subagentTranscript'] {
  const main = session.files.find((f) => f.role === 'main');
  if (!main || (!main.openedAlone && main.agentId === undefined)) return undefined;
  const agentId = main.agentId ?? session.entries.find((e) => e.fileIndex === main.index)?.agentId;
  return { agentId, agentType: main.agentType };
}

/** Builds the plain-data report of a parsed session. */
export function computeInspectReport(session: Session): InspectReport {
  const fileName = (i: number) => session.files[i]?.name ?? `#${i}`;
  const systemSubtypes: Record<string, number> = {};
  for (const e of session.entries) {
    if (e.kind === 'system') {
      const key = e.subtype ?? '(none)';
      systemSubtypes[key] = (systemSubtypes[key] ?? 0) + 1;
    }
  }
  const issueCounts = { error: 0, warning: 0, info: 0 };
  for (const issue of session.issues) issueCounts[issue.severity]++;
  const { startMs, endMs } = session.meta;
  const subagentTranscript = getSubagentTranscript(session);
  return {
    format: session.format,
    files: session.files.map(
      ({ name, sizeBytes, lines, role, agentId, dialect, foldedCopies, agentType }) => ({
        name,
        sizeBytes,
        lines,
        role,
        agentId,
        dialect,
        ...(foldedCopies ? { foldedCopies } : {}),
        ...(agentType !== undefined ? { agentType } : {}),
      }),
    ),
    mainFile: getShownMainFile(session)?.name,
    ...(subagentTranscript ? { subagentTranscript } : {}),
    foldedCopies: countFoldedCopies(session.files),
    agent: session.meta.agent,
    versions: session.meta.versions,
    models: session.meta.models,
    ...(session.meta.setModels ? { setModels: session.meta.setModels } : {}),
    sessionId: session.meta.sessionId,
    ...(session.meta.title ? { title: session.meta.title } : {}),
    ...(session.meta.promptLog ? { promptLog: session.meta.promptLog } : {}),
    cwd: session.meta.cwd,
    gitBranch: session.meta.gitBranch,
    contextWindow: session.meta.contextWindow,
    ...(session.meta.statedTotals ? { statedTotals: session.meta.statedTotals } : {}),
    ...(session.meta.statedCost ? { statedCost: session.meta.statedCost } : {}),
    start: iso(startMs),
    end: iso(endMs),
    durationMs: startMs !== undefined && endMs !== undefined ? endMs - startMs : undefined,
    entries: session.entries.length,
    userTurns: session.userTurns,
    countsByType: session.countsByType,
    systemSubtypes,
    unknownTypes: session.unknownTypes,
    toolCalls: session.toolCalls,
    toolPairs: session.toolPairs,
    ...(session.sidechains.length > 0 ? { toolPairsByThread: splitToolPairs(session) } : {}),
    issues: session.issues.map(({ fileIndex, ...rest }) => ({ file: fileName(fileIndex), ...rest })),
    issueCounts,
    apiCalls: session.apiCalls.map(reportCall),
    ...(session.failedRequests?.length
      ? {
          failedRequests: session.failedRequests.map((f) => ({
            line: f.line,
            file: fileName(f.fileIndex),
            timestamp: iso(f.timestampMs),
            reason: f.reason,
            ...(f.detail !== undefined ? { detail: f.detail } : {}),
            afterApiCall: f.afterApiCall,
          })),
        }
      : {}),
    compactions: session.compactions.map((c) => ({
      kind: c.kind,
      trigger: c.trigger,
      preTokens: c.preTokens,
      postTokens: c.postTokens,
      summaryTokens: c.summaryTokens,
      ...(c.summaryScope ? { summaryScope: c.summaryScope } : {}),
      tokensSaved: c.tokensSaved,
      clearedToolIds: c.clearedToolIds,
      deletedRange: c.deletedRange,
      uuid: c.uuid,
      line: c.line,
      file: fileName(c.fileIndex),
      timestamp: iso(c.timestampMs),
      apiCallBefore: c.apiCallBefore,
      apiCallAfter: c.apiCallAfter,
      summaryLine:
        c.summaryEntryIndex === undefined ? undefined : at(session.entries, c.summaryEntryIndex).line,
      reattached: c.reattachedEntryIndices.length,
      customInstructions: c.customInstructions,
      compactionCall: reportCompactionCall(session, c),
    })),
    clearedToolResults: session.cleared.size,
    peakContextTokens: session.peakContextTokens,
    sidechains: session.sidechains.map((s) => ({
      agentId: s.agentId,
      file: fileName(s.fileIndex),
      role: session.files[s.fileIndex]?.role ?? 'main',
      spawnedBy: s.spawnedBy,
      agentType: session.files[s.fileIndex]?.agentType,
      description: session.files[s.fileIndex]?.agentDescription,
      entries: s.entryIndices.length,
      apiCalls: s.apiCalls,
      peakContextTokens: s.peakContextTokens,
      usage: s.usage,
    })),
  };
}
