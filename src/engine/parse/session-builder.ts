import { at } from '../assert';
import type {
  ApiCall,
  Compaction,
  DialectId,
  Entry,
  FailedRequest,
  IssueCode,
  ParseIssue,
  Session,
  SessionFile,
  Severity,
  StatedTotals,
} from '../types';
import { UNKNOWN_DIALECT } from '../types';
import type { DialectInfo, TranscriptConventions } from './dialects/descriptor';
import {
  implausibleTimeMessage,
  isPlausibleTimeMs,
  type RecordExtras,
  type RecordNormalizer,
  type TitleNote,
} from './dialects/record';
import { causeIn, findUnderstatedOutput } from './understated-output';
import { CompactionTracker } from './compaction-tracker';
import { foldCopiedRecord } from './fold-copies';
import { SessionTitles } from './session-title';
import { addSidechainCall, contextOf, type SidechainAcc, SidechainTracker } from './sidechains';

// Accumulates entries from one or more files into a Session: deduplicates streamed API responses,
// finds compactions and what follows them, links tool calls to results and sidechains to the
// calls that spawned them (docs/sources.md#fmt-compaction, #fmt-usage, #fmt-subagents).

export class SessionBuilder {
  readonly files: SessionFile[] = [];
  readonly entries: Entry[] = [];
  readonly apiCalls: ApiCall[] = [];
  readonly failedRequests: FailedRequest[] = [];
  readonly compactions: Compaction[] = [];
  readonly issues: ParseIssue[] = [];
  readonly countsByType: Record<string, number> = {};
  readonly unknownTypes: Record<string, number> = {};
  readonly toolCalls: Record<string, number> = {};
  readonly cleared: Session['cleared'] = new Map();
  readonly toolUseEntry = new Map<string, number>();
  readonly toolResultEntry = new Map<string, number>();
  private readonly callByKey = new Map<string, ApiCall>();
  private readonly versions: string[] = [];
  private readonly models: string[] = [];
  private readonly meta: Session['meta'] = {
    agent: '',
    versions: this.versions,
    models: this.models,
  };
  /** Main-thread user turns so far. */
  userTurns = 0;
  /**
   * What a person first asked, as it reads: the first main-thread user turn with a prompt, its
   * agent's wrappers removed and a command as typed (`/review the parser`); undefined until one is
   * seen. A bare command (`/clear`, `/context`) is only the fallback (`firstBareCommand`).
   */
  firstPrompt: string | undefined;
  private firstBareCommand: string | undefined;
  private readonly uuidsByFile = new Map<number, Set<string>>();
  private readonly titles = new SessionTitles();
  /** A prompt log's prompts, each by the session it was typed in (RecordExtras.promptOf). */
  private readonly promptSessions: string[] = [];
  /** Models the main file's records set (`RecordExtras.model` off a response), answered or not. */
  private readonly namedModels: string[] = [];
  /** Lines are skipped unread (the library's scan): not every uuid of the session is known. */
  skipsLines = false;
  /** A main-file record that names no session was added: names after it are the session's own. */
  private sawMainRecord = false;
  /** Subagents' and inline (1.0.x) sidechains, and the calls that spawned them. */
  private readonly sidechains = new SidechainTracker();
  /** By file index: API calls are entries carrying usage, not assistant entries (see RecordNormalizer). */
  private readonly callsFromUsage: boolean[] = [];
  /** By file index: its main-thread calls, in order (an event may name the one it followed). */
  readonly callsByFile = new Map<number, number[]>();
  /** By file index: what its dialect says about user turns, commands and system records. */
  readonly conventions: TranscriptConventions[] = [];
  private readonly compactionTracker = new CompactionTracker(this);

  addFile(file: SessionFile): void {
    this.files[file.index] = file;
  }

  /** Says which dialect and normalizer read a file, before its first entry is added. */
  setFileDialect(fileIndex: number, dialect: DialectInfo, normalizer: RecordNormalizer): void {
    this.callsFromUsage[fileIndex] = normalizer.apiCalls === 'usage-records';
    this.conventions[fileIndex] = dialect.transcript ?? {};
    if (at(this.files, fileIndex).role === 'main' || this.meta.agent === '')
      this.meta.agent = normalizer.agent;
  }

  issue(
    fileIndex: number,
    line: number,
    code: IssueCode,
    severity: Severity,
    message: string,
    path?: string,
  ): void {
    this.issues.push(
      path === undefined
        ? { fileIndex, line, code, severity, message }
        : { fileIndex, line, code, severity, message, path },
    );
  }

  format: DialectId = UNKNOWN_DIALECT;

  /** A name the main file states beside its records (a whole-document chat's), at `line`. */
  noteTitle(title: TitleNote, line: number): void {
    this.titles.note(title, line, false);
  }

  /** Adds one normalized entry. Entries must arrive in file order, main file first. */
  addEntry(entry: Entry, extras: RecordExtras): void {
    const file = at(this.files, entry.fileIndex);
    if (foldCopiedRecord(this.uuidsByFile, entry, file)) return;
    if (entry.timestampMs !== undefined && !isPlausibleTimeMs(entry.timestampMs)) {
      this.issue(
        entry.fileIndex,
        entry.line,
        'out-of-range',
        'warning',
        implausibleTimeMessage(entry.timestampMs),
      );
      entry.timestampMs = undefined;
    }
    const isMainFile = file.role === 'main';
    // A content file's calls, tools and turns are the main file's too: kept, not counted again.
    const isContent = file.role === 'content';
    const countsTowardsSession = file.role !== 'compaction-call' && !isContent;
    this.entries.push(entry);
    const typeKey = entry.type || '(no type)';
    this.countsByType[typeKey] = (this.countsByType[typeKey] ?? 0) + 1;

    if (entry.kind === 'unknown')
      this.noteUnknown(entry.subtype === undefined ? typeKey : `${typeKey}:${entry.subtype}`, entry);
    else if (
      entry.kind === 'system' &&
      entry.subtype !== undefined &&
      !this.conventions[entry.fileIndex]?.knownSystemSubtypes?.has(entry.subtype)
    ) {
      this.noteUnknown(`system:${entry.subtype}`, entry);
    }

    if (entry.uuid !== undefined) {
      let seen = this.uuidsByFile.get(entry.fileIndex);
      if (!seen) {
        seen = new Set();
        this.uuidsByFile.set(entry.fileIndex, seen);
      }
      if (seen.has(entry.uuid)) {
        this.issue(
          entry.fileIndex,
          entry.line,
          'duplicate-uuid',
          'warning',
          `uuid ${entry.uuid} appears earlier in this file`,
          'uuid',
        );
      }
      seen.add(entry.uuid);
    }

    if (extras.version && !this.versions.includes(extras.version)) this.versions.push(extras.version);
    if (extras.sessionId !== undefined) file.sessionId ??= extras.sessionId;
    if (isMainFile) {
      if (extras.agent) this.meta.agent = extras.agent;
      this.meta.contextWindow ??= extras.contextWindow;
      this.meta.host ??= extras.host;
      if (extras.provider !== undefined && !this.meta.providers?.includes(extras.provider))
        this.meta.providers = [...(this.meta.providers ?? []), extras.provider];
      this.meta.contextEdits ??= extras.contextEdits;
      if (extras.compactedContextTokens !== undefined) {
        const last = this.compactions.at(-1);
        if (last && last.kind === 'compact' && last.summaryTokens === undefined) {
          last.summaryTokens = extras.compactedContextTokens;
          // The context after it: the summary and what was kept.
          last.summaryScope = 'history';
        }
      }
      this.meta.cwd ??= extras.cwd;
      this.meta.gitBranch ??= extras.gitBranch;
      this.meta.sessionId ??= extras.sessionId;
      if (extras.promptOf !== undefined) this.promptSessions.push(extras.promptOf);
      // A record that sets the model (a `model_change` or `turn_context` record), not a message
      // (an OpenClaw gateway's injected answers name a pseudo-model, `gateway-injected`).
      const setsModel = extras.model && extras.model !== 'unknown' && entry.kind !== 'assistant';
      if (setsModel && !this.namedModels.includes(extras.model!)) this.namedModels.push(extras.model!);
      if (extras.title) this.titles.note(extras.title, entry.line, this.sawMainRecord);
      else this.sawMainRecord = true;
      if (extras.statedTotals) this.addStatedTotals(extras.statedTotals);
      if (extras.statedCostUsd !== undefined) {
        const stated = this.meta.statedCost ?? { usd: 0, records: 0 };
        stated.usd += extras.statedCostUsd;
        stated.records++;
        this.meta.statedCost = stated;
      }
      if (entry.timestampMs !== undefined) {
        if (this.meta.startMs === undefined || entry.timestampMs < this.meta.startMs)
          this.meta.startMs = entry.timestampMs;
        if (this.meta.endMs === undefined || entry.timestampMs > this.meta.endMs)
          this.meta.endMs = entry.timestampMs;
      }
    }

    if (countsTowardsSession) this.indexTools(entry, extras);
    else if (isContent) this.indexAnswers(entry);

    // Sidechain membership: subagent files, or inline isSidechain entries (1.0.x).
    let sidechain: SidechainAcc | undefined;
    if (!isMainFile && !isContent) sidechain = this.sidechains.forFile(file);
    else if (entry.isSidechain && !file.openedAlone) sidechain = this.sidechains.inline(entry, extras);
    if (sidechain) {
      sidechain.sidechain.entryIndices.push(entry.index);
      if (entry.timestampMs !== undefined) sidechain.lastTimestampMs = entry.timestampMs;
      if (sidechain.sidechain.spawnedBy) entry.spawnedBy = sidechain.sidechain.spawnedBy;
    }

    // A request that brought back no answer is no call (its dialect says so: failedRequest).
    const isCall =
      entry.failedRequest === undefined &&
      (this.callsFromUsage[entry.fileIndex]
        ? entry.usage !== undefined
        : entry.kind === 'assistant' && !entry.isSynthetic);
    // The session's models are those that answered, in order of first use: a model the log only
    // switched to or configured (a dialect's `extras.model`) is not one until a call of it is
    // recorded; an `unknown` placeholder is none.
    if (
      (isCall || (entry.kind === 'assistant' && !entry.isSynthetic && !entry.failedRequest)) &&
      entry.model &&
      entry.model !== 'unknown' &&
      !this.models.includes(entry.model)
    ) {
      this.models.push(entry.model);
    }
    if (isCall) {
      if (sidechain) addSidechainCall(sidechain, entry);
      else if (isMainFile) this.addMainCall(entry);
    } else if (entry.failedRequest && !sidechain && isMainFile) {
      const failed: FailedRequest = {
        entryIndex: entry.index,
        fileIndex: entry.fileIndex,
        line: entry.line,
        timestampMs: entry.timestampMs,
        reason: entry.failedRequest.reason,
        afterApiCall: this.apiCalls.length - 1,
      };
      if (entry.failedRequest.detail !== undefined) failed.detail = entry.failedRequest.detail;
      this.failedRequests.push(failed);
    }

    const isMainThread = isMainFile && (!entry.isSidechain || file.openedAlone === true);
    if (isMainThread && entry.kind === 'user' && this.isUserTurn(entry)) {
      if (this.firstPrompt === undefined) this.notePrompt(entry);
      this.userTurns++;
    }

    if (countsTowardsSession) this.compactionTracker.track(entry);
  }

  /** Each run states its own totals (docs/sources.md#fmt-sdk-stream): the session's are their sum. */
  private addStatedTotals(run: StatedTotals): void {
    const total = this.meta.statedTotals;
    if (!total) {
      this.meta.statedTotals = { ...run, usage: { ...run.usage } };
      return;
    }
    total.runs += run.runs;
    total.errors += run.errors;
    total.usage.inputTokens += run.usage.inputTokens;
    total.usage.cacheCreationInputTokens += run.usage.cacheCreationInputTokens;
    total.usage.cacheReadInputTokens += run.usage.cacheReadInputTokens;
    total.usage.outputTokens += run.usage.outputTokens;
    if (run.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + run.costUsd;
    total.turns += run.turns;
    total.durationMs += run.durationMs;
    total.durationApiMs += run.durationApiMs;
  }

  private noteUnknown(key: string, entry: Entry): void {
    const count = (this.unknownTypes[key] ?? 0) + 1;
    this.unknownTypes[key] = count;
    if (count === 1) {
      this.issue(
        entry.fileIndex,
        entry.line,
        'unknown-record',
        'info',
        `Record type "${key}" is not modelled; it is kept and shown as is (first seen here)`,
        key.startsWith('system:') ? 'subtype' : entry.subtype !== undefined ? 'payload.type' : 'type',
      );
    }
  }

  /** Takes a user turn's first text a person typed as the first prompt (see `firstPrompt`). */
  private notePrompt(entry: Entry): void {
    const c = this.conventions[entry.fileIndex] ?? {};
    for (const block of entry.blocks) {
      if (block.kind !== 'text') continue;
      const text = (c.stripInjected?.(block.text) ?? block.text).trim();
      if (text === '') continue;
      const read = c.readUserText?.(text);
      if (read === null) continue;
      if (read?.kind === 'command' && !/\s/.test(read.text)) {
        this.firstBareCommand ??= read.text;
        return;
      }
      this.firstPrompt = read?.text ?? text;
      return;
    }
  }

  private isUserTurn(entry: Entry): boolean {
    if (entry.isMeta || entry.isCompactSummary || entry.isVisibleInTranscriptOnly) return false;
    const first = entry.blocks[0];
    if (first?.kind !== 'text') return false;
    if (entry.blocks.some((b) => b.kind === 'tool-result')) return false;
    return !this.conventions[entry.fileIndex]?.isInjectedUserText?.(first.text.trimStart());
  }

  private indexTools(entry: Entry, extras: RecordExtras): void {
    for (const block of entry.blocks) {
      if (block.kind === 'tool-use') {
        this.toolUseEntry.set(block.id, entry.index);
        this.toolCalls[block.name] = (this.toolCalls[block.name] ?? 0) + 1;
      } else if (block.kind === 'tool-result') {
        this.toolResultEntry.set(block.toolUseId, entry.index);
        const placeholder = this.conventions[entry.fileIndex]?.clearedPlaceholder;
        if (placeholder && block.text.startsWith(placeholder) && !this.cleared.has(block.toolUseId)) {
          this.cleared.set(block.toolUseId, { toolUseId: block.toolUseId, compactionIndex: -1 });
        }
        if (extras.spawnedAgentId) this.sidechains.noteSpawn(extras.spawnedAgentId, block.toolUseId);
      }
    }
    if (extras.taskPrompts) this.sidechains.noteTaskPrompts(extras.taskPrompts);
  }

  /**
   * A content file's results that answer the main file's calls still without one: a Cline task's
   * UI log shows its reads and writes, its API history their results (the two real gmfstu tasks:
   * 80 of their 81 calls; none paired before, '35 without result'). Its other results stay
   * uncounted, as its calls are.
   */
  private indexAnswers(entry: Entry): void {
    for (const block of entry.blocks)
      if (
        block.kind === 'tool-result' &&
        this.toolUseEntry.has(block.toolUseId) &&
        !this.toolResultEntry.has(block.toolUseId)
      )
        this.toolResultEntry.set(block.toolUseId, entry.index);
  }

  private addMainCall(entry: Entry): void {
    // Streamed responses are written one line per block, sharing message.id and requestId; input
    // and cache fields repeat, output_tokens is a running snapshot: take it once, max the output.
    const key = entry.messageId ?? entry.requestId ?? entry.uuid ?? `#${entry.index}`;
    let call = this.callByKey.get(key);
    if (!call) {
      const usage = entry.usage ?? {
        inputTokens: 0,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 0,
        outputTokens: 0,
      };
      call = {
        index: this.apiCalls.length,
        messageId: entry.messageId,
        requestId: entry.requestId,
        model: entry.model ?? 'unknown',
        ...(entry.provider !== undefined ? { provider: entry.provider } : {}),
        fileIndex: entry.fileIndex,
        firstEntryIndex: entry.index,
        lastEntryIndex: entry.index,
        uuid: entry.uuid,
        line: entry.line,
        timestampMs: entry.timestampMs,
        usage: { ...usage },
        contextTokens: contextOf(usage),
      };
      this.callByKey.set(key, call);
      this.apiCalls.push(call);
      const fileCalls = this.callsByFile.get(entry.fileIndex);
      if (fileCalls) fileCalls.push(call.index);
      else this.callsByFile.set(entry.fileIndex, [call.index]);
    } else {
      call.lastEntryIndex = entry.index;
      if (entry.uuid) call.uuid = entry.uuid;
      // A call first seen without usage (a raw API request) takes its response's when it comes.
      if (entry.usage && call.contextTokens === 0 && contextOf(entry.usage) > 0) {
        call.usage = { ...entry.usage };
        call.contextTokens = contextOf(entry.usage);
        if (entry.model) call.model = entry.model;
      }
      if (entry.usage && entry.usage.outputTokens > call.usage.outputTokens)
        call.usage.outputTokens = entry.usage.outputTokens;
    }
    entry.apiCallIndex = call.index;
  }

  build(): Session {
    for (const c of this.compactions) {
      if (c.fileIndex !== 0 && at(this.files, c.fileIndex).role !== 'main') continue;
      if (c.apiCallAfter !== undefined) continue;
      const after = c.apiCallBefore === undefined ? 0 : c.apiCallBefore + 1;
      const call = this.apiCalls[after];
      if (call && call.firstEntryIndex > c.entryIndex) {
        c.apiCallAfter = after;
        c.postTokens = call.contextTokens;
      }
    }
    let peak = 0;
    for (const call of this.apiCalls) peak = Math.max(peak, call.contextTokens);
    let matched = 0;
    for (const id of this.toolUseEntry.keys()) if (this.toolResultEntry.has(id)) matched++;
    let unmatchedResults = 0;
    for (const id of this.toolResultEntry.keys()) if (!this.toolUseEntry.has(id)) unmatchedResults++;

    // Derived from the calls so far, never added to the lines' issues: a live step builds again
    // from this builder (live-parse.ts), and a kept note would come back once per step.
    const understated = findUnderstatedOutput(this.entries, this.apiCalls, causeIn(this.conventions));
    const issues = understated ? [...this.issues, understated] : this.issues.slice();
    this.sidechains.linkCompactionCalls(this.compactions, this.files, this.entries);
    this.sidechains.linkSpawners(this.entries);
    // A whole-document chat states its session beside its records (`readDocument`), not in one.
    const stated = this.files.find((f) => f.role === 'main' && f.sessionId !== undefined)?.sessionId;
    if (this.meta.sessionId === undefined && stated !== undefined) this.meta.sessionId = stated;
    const title = this.titles.resolve(
      (uuid) => this.files.some((f) => f.role === 'main' && this.uuidsByFile.get(f.index)?.has(uuid)),
      !this.skipsLines,
    );
    if (title) this.meta.title = title;
    else delete this.meta.title;
    // No call answered: the models the log was set to say what it ran with (a session whose one
    // request failed names its model in `model_change`), said as set, not as answering.
    if (this.models.length === 0 && this.namedModels.length > 0) this.meta.setModels = [...this.namedModels];
    else delete this.meta.setModels;
    if (this.promptSessions.length > 0)
      this.meta.promptLog = {
        prompts: this.promptSessions.length,
        sessions: new Set(this.promptSessions).size,
      };

    return {
      format: this.format,
      files: this.files,
      entries: this.entries,
      apiCalls: this.apiCalls,
      failedRequests: this.failedRequests,
      compactions: this.compactions,
      issues,
      countsByType: this.countsByType,
      unknownTypes: this.unknownTypes,
      meta: this.meta,
      toolCalls: this.toolCalls,
      toolPairs: { matched, unmatchedUses: this.toolUseEntry.size - matched, unmatchedResults },
      userTurns: this.userTurns,
      firstPrompt: this.firstPrompt ?? this.firstBareCommand,
      peakContextTokens: peak,
      cleared: this.cleared,
      toolUseEntry: this.toolUseEntry,
      toolResultEntry: this.toolResultEntry,
      sidechains: this.sidechains.list(),
    };
  }
}
