// The simulation behind generate-session.ts: a developer and Claude Code working through the
// story prompt by prompt, with the session's token accounting, prompt cache and compactions.

import {
  type Account,
  countTokens,
  createThinkingBlock,
  IMAGE_TOKENS,
  MAIN_MODEL,
  MS_PER_OUTPUT_TOKEN,
  SYSTEM_PROMPT_TOKENS,
  streamBlocks,
  takeUsage,
  utf8Length,
} from './accounting';
import {
  type ClearableItem,
  type CompactionModel,
  createCompactionModel,
  estimateContentTokens,
  selectClearable,
} from './compaction-model';
import { buildPlan, type CallPlan } from './plan';
import { createRng, randomToolUseId, randomUuid, type Rng } from './prng';
import { CATEGORIES, PAYEES } from './project';
import { FILES, PROJECT_CWD } from './project-files';
import { runExploreAgent, writeCompactionCall } from './side-agents';
import { createFollowUp, type PromptSpec, STORY } from './story';
import { createWorkLog, formatCompactSummary, type WorkLog } from './summary';
import {
  abs,
  fileExists,
  type ProjectState,
  readProjectFile,
  runTool,
  type TodoItem,
  type ToolOutcome,
} from './tools';
import { type JsonObject, TranscriptWriter } from './transcript-writer';
import { TOKENS_PER_IMAGE } from '../src/engine/tokens/estimate';
import type { GeneratedLine, GenerateSessionOptions, SessionFeatures } from './generate-session';

/**
 * The version written on every record. Microcompact boundaries are seen only in 2.1.9–2.1.19
 * (docs/replay-accuracy.md), and the sample has one: 2.1.19 is the one version the replay model
 * associates with everything the sample shows (auto and manual compaction, microcompact, the 2.1.x
 * pending estimate). Its threshold profile is `v2.0`: auto-compact at 155,000, warning (and
 * microcompact) at 135,000 for a 200k window.
 */
export const DEFAULT_CLAUDE_CODE_VERSION = '2.1.19';
/** Files re-read into context after a compaction are capped (recent reads, newest first). */
const RESTORED_FILES_MAX_TOKENS = 6_000;
/** The placeholder a cleared result keeps (docs/sources.md#fmt-microcompact-boundary). */
const CLEARED_PLACEHOLDER = '[Old tool result content cleared]';
/**
 * Bank exports read in one call, once per session before the first auto-compaction: started when
 * the usage is this close below the warning threshold, sized so that the pending estimate carries
 * the count over the auto-compact threshold. With microcompact on, the context otherwise never
 * reaches it (each crossing of the warning threshold clears old results instead).
 */
const EXPORT_READ_BELOW_WARNING_TOKENS = 8_000;
/** How far past the auto-compact threshold the exports carry the count. */
const EXPORT_READ_MARGIN_TOKENS = 1_500;
/** Read's line limit (Claude Code reads at most 2,000 lines without offset / limit). */
const READ_MAX_LINES = 2_000;
const DEFAULT_START_MS = Date.UTC(2026, 2, 9, 8, 47, 12, 318);
/** A 32×12 PNG of coloured bars, standing in for a pasted screenshot. */
const SCREENSHOT_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAMCAIAAACMdijuAAAAXklEQVR42mPQ0DGhKWJA5sw4XImHm7j+PVYjHuSU4hFhINJ0PBbgt4yBSNMJWoDLHwxEmk5+EBFpOqVBREkkEw4iPKYDDcWPiE1FlEcyviCiMJIJBBHlkUxsRqMRAgDSnBgV6YxHWgAAAABJRU5ErkJggg==';

const WORDS_A = ['ticking', 'humble', 'quiet', 'amber', 'brisk', 'gentle', 'lucky', 'velvet'] as const;
const WORDS_B = ['sailing', 'dancing', 'wandering', 'glowing', 'drifting', 'humming'] as const;
const WORDS_C = ['lantern', 'otter', 'meadow', 'compass', 'harbor', 'teapot', 'falcon'] as const;

function hash16(text: string, seed: number): string {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x1234567 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619);
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 2246822519);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

export class SessionSim {
  readonly rng: Rng;
  readonly sessionId: string;
  readonly mainName: string;
  readonly version: string;
  readonly slug: string;
  readonly main: TranscriptWriter;
  readonly features: SessionFeatures;
  readonly targetCalls: number;
  readonly targetBytes?: number;
  readonly project: ProjectState;
  readonly log: WorkLog = createWorkLog();
  readonly todos: TodoItem[] = [];
  readonly acct: Account;
  /** Lines of files other than the main one, not yet handed out. */
  private other: GeneratedLine[] = [];
  mainBytes = 0;
  apiCalls = 0;
  autoCompactions = 0;
  /** The replay model's knobs for this log: when it compacts and microcompacts. */
  readonly model: CompactionModel;
  /** API call count when the first microcompaction happened. */
  private microCall?: number;
  private manualPending = false;
  private manualDone = false;
  private exportsRead = false;
  /** Clearable items since the last compaction, not cleared, in call order. */
  private live: ClearableItem[] = [];
  /** Estimate of the context entries written since the last response's first line (`pendingEstimate`). */
  private pendingEstimate = 0;
  private recentReads: { path: string; tokens: number }[] = [];
  private backups = new Map<string, { version: number; timeMs: number }>();
  private changedThisTurn = new Set<string>();
  private promptId = '';
  private turnStartMs = 0;
  private turnMessages = 0;
  spec!: PromptSpec;
  private readonly seed: number;
  private storyIndex: number;

  constructor(options: GenerateSessionOptions) {
    this.seed = options.seed;
    this.rng = createRng(options.seed);
    this.sessionId = randomUuid(this.rng);
    this.mainName = `${this.sessionId}.jsonl`;
    this.version = options.version ?? DEFAULT_CLAUDE_CODE_VERSION;
    this.slug = `${this.rng.pick(WORDS_A)}-${this.rng.pick(WORDS_B)}-${this.rng.pick(WORDS_C)}`;
    this.targetBytes = options.targetBytes;
    this.targetCalls = options.apiCalls ?? 400;
    this.features = { specials: true, microcompact: true, manualCompact: true, ...options.features };
    this.model = createCompactionModel(this.version, MAIN_MODEL, this.features.microcompact);
    this.storyIndex = options.storyStart ?? 0;
    this.project = {
      seed: options.seed,
      scale: options.outputScale ?? (options.targetBytes === undefined ? 1 : 1.5),
      files: new Map(),
      revisions: new Map(),
      branch: 'main',
      preexisting: options.initialContextTokens !== undefined,
    };
    this.main = new TranscriptWriter({
      rng: this.rng,
      sessionId: this.sessionId,
      cwd: PROJECT_CWD,
      version: this.version,
      gitBranch: 'main',
      slug: this.slug,
      startMs: options.startMs ?? DEFAULT_START_MS,
    });
    this.acct = {
      ctx: options.initialContextTokens ?? SYSTEM_PROMPT_TOKENS,
      cachedPrefix: 0,
      lastContext: 0,
      lastOutput: 0,
    };
  }

  private done(): boolean {
    return this.targetBytes !== undefined
      ? this.mainBytes >= this.targetBytes
      : this.apiCalls >= this.targetCalls;
  }

  private has(special: string): boolean {
    return this.features.specials && (this.spec.special?.includes(special as never) ?? false);
  }

  *run(): Generator<GeneratedLine> {
    let round = 0;
    while (!this.done()) {
      const spec =
        this.storyIndex < STORY.length
          ? (STORY[this.storyIndex] as PromptSpec)
          : createFollowUp(this.rng, ++round);
      this.storyIndex++;
      if (this.shouldReadExports()) {
        this.runPrompt(EXPORTS_SPEC, true);
        yield* this.flush();
        if (this.done()) break;
      }
      this.runPrompt(spec);
      yield* this.flush();
    }
    this.main.raw({ type: 'last-prompt', lastPrompt: this.log.lastUserMessage, sessionId: this.sessionId });
    yield* this.flush();
  }

  private *flush(): Generator<GeneratedLine> {
    for (const line of this.main.drain()) {
      this.mainBytes += utf8Length(line) + 1;
      yield { file: this.mainName, line };
    }
    const other = this.other;
    this.other = [];
    yield* other;
  }

  emitOther(file: string, lines: string[]): void {
    for (const line of lines) this.other.push({ file, line });
  }

  // -------------------------------------------------------------------------------------------
  // Turns.

  private runPrompt(spec: PromptSpec, readExports = false): void {
    this.spec = spec;
    const m = this.main;
    if (this.has('break')) {
      m.raw({ type: 'last-prompt', lastPrompt: this.log.lastUserMessage, sessionId: this.sessionId });
      m.tick(75 * 60_000 + this.rng.int(0, 600_000));
      m.raw({
        type: 'summary',
        summary: 'Tally CLI: journal parser, report and export commands',
        leafUuid: m.parent,
      });
    }
    if (this.has('unknown-record')) {
      // A record type this project has never seen: parsers must keep it and count it.
      m.raw({
        type: 'session-metrics',
        sessionId: this.sessionId,
        timestamp: m.iso(),
        apiDurationMs: this.rng.int(2_000_000, 3_000_000),
        linesAdded: this.rng.int(1500, 2500),
        linesRemoved: this.rng.int(100, 400),
      });
    }
    if (this.has('manual-compact')) this.manualPending = true;
    const withImage = this.has('image');
    // Before the prompt is sent: the replay model's check after the last call counts the prompt.
    const fired = this.applyModel(estimateContentTokens(promptContent(spec.text, withImage)), withImage);
    if (!fired && this.shouldManualCompact()) this.compact('manual', undefined, 'focus on the parser');

    const budget = this.targetBytes !== undefined ? 1000 : this.targetCalls - this.apiCalls;
    const plan = readExports
      ? this.planExportRead()
      : buildPlan(this.rng, spec, (p) => fileExists(this.project, p), this.features.specials, budget);
    this.writePrompt(spec.text, withImage);
    this.log.intents.push(spec.intent);
    for (const c of spec.concepts) if (!this.log.concepts.includes(c)) this.log.concepts.push(c);
    this.trimLog();

    const queueAt = this.has('queue') ? Math.floor(plan.length / 2) : -1;
    const queued = 'Also make the --tag match case-insensitive, my journals mix #Shared and #shared.';
    for (let i = 0; i < plan.length; i++) {
      const call = plan[i] as CallPlan;
      if (i > 0) this.applyModel(0, false);
      if (i === 1 && this.has('api-error')) this.writeApiErrors();
      if (i === queueAt) {
        m.raw({
          type: 'queue-operation',
          operation: 'enqueue',
          timestamp: m.iso(),
          sessionId: this.sessionId,
          content: queued,
        });
      }
      this.log.currentWork = `${spec.intent}. ${i + 1 < plan.length ? `In progress (step ${i + 1} of ${plan.length}).` : 'Finishing up.'}`;
      this.log.nextStep =
        i + 1 < plan.length ? `Continue with: ${spec.intent}.` : 'Wait for the next request.';
      const rejected = this.mainCall(call, i === plan.length - 1);
      if (rejected) {
        this.endTurn(true);
        this.writePrompt(
          "No, don't change the signature of parseAmount, other code depends on it. Normalise the digits before the separator logic instead.",
          false,
        );
      }
    }
    this.endTurn(false);
    if (queueAt >= 0) {
      m.tick(this.rng.int(800, 2000));
      m.raw({ type: 'queue-operation', operation: 'dequeue', timestamp: m.iso(), sessionId: this.sessionId });
      this.runPrompt({
        text: queued,
        intent: 'Case-insensitive --tag matching',
        edits: ['src/commands/report.ts'],
        test: 'tests/report.test.ts',
        concepts: [],
        plan: 'Lower-case both sides once when the tags are parsed, not on every comparison.',
        done: 'Tags are lower-cased when parsed, so `--tag shared` matches `#Shared` and `#shared`.',
      });
    }
  }

  private writePrompt(text: string, withImage: boolean): void {
    const m = this.main;
    m.tick(this.rng.int(20_000, 240_000));
    const uuid = randomUuid(this.rng);
    m.raw(this.fileHistorySnapshot(uuid));
    this.promptId = randomUuid(this.rng);
    const content = promptContent(text, withImage);
    const after: JsonObject = {
      permissionMode: this.storyIndex > 8 ? 'acceptEdits' : 'default',
      promptId: this.promptId,
    };
    if (withImage) after.imagePasteIds = [1];
    m.user(content, { uuid, after });
    this.pendingEstimate += estimateContentTokens(content);
    if (withImage && this.model.knobs.microcompactClearImages) {
      // The replay names a pasted image after its entry (replay/prepare.ts).
      this.live.push({
        id: `${uuid}:image:0`,
        estimate: TOKENS_PER_IMAGE,
        tokens: IMAGE_TOKENS,
        offset: this.acct.ctx,
      });
    }
    this.acct.ctx += countTokens(text) + 6 + (withImage ? IMAGE_TOKENS : 0);
    this.turnStartMs = m.clockMs;
    this.turnMessages = 1;
    this.log.userMessages.push(text);
    this.log.lastUserMessage = text;
  }

  private fileHistorySnapshot(messageId: string): JsonObject {
    const m = this.main;
    for (const path of this.changedThisTurn) {
      const b = this.backups.get(path);
      this.backups.set(path, {
        version: (b?.version ?? 0) + 1,
        timeMs: m.clockMs - this.rng.int(5_000, 60_000),
      });
    }
    this.changedThisTurn.clear();
    const tracked: JsonObject = {};
    for (const [path, b] of this.backups) {
      tracked[path] = {
        backupFileName: `${hash16(path, this.seed)}@v${b.version}`,
        version: b.version,
        backupTime: m.iso(b.timeMs),
      };
    }
    return {
      type: 'file-history-snapshot',
      messageId,
      snapshot: { messageId, trackedFileBackups: tracked, timestamp: m.iso() },
      isSnapshotUpdate: false,
    };
  }

  private endTurn(interrupted: boolean): void {
    const m = this.main;
    if (interrupted) {
      m.tick(this.rng.int(300, 1500));
      const content = [{ type: 'text', text: '[Request interrupted by user for tool use]' }];
      m.user(content);
      this.pendingEstimate += estimateContentTokens(content);
      return;
    }
    m.tick(this.rng.int(40, 200));
    m.system(
      'stop_hook_summary',
      {
        hookCount: 1,
        hookInfos: [{ command: 'npm run -s lint' }],
        hookErrors: [],
        preventedContinuation: false,
        stopReason: '',
        hasOutput: false,
        level: 'suggestion',
      },
      { tail: { toolUseID: randomUuid(this.rng) } },
    );
    m.tick(this.rng.int(5, 30));
    m.system('turn_duration', {
      durationMs: m.clockMs - this.turnStartMs,
      messageCount: this.turnMessages,
      isMeta: false,
    });
  }

  private writeApiErrors(): void {
    const m = this.main;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const retryInMs = 500 * 2 ** (attempt - 1) * (1 + this.rng.next() * 0.25);
      m.tick(this.rng.int(1500, 9000));
      m.system(
        'api_error',
        {
          level: 'error',
          error: {
            status: 529,
            headers: { 'content-type': 'application/json', 'x-should-retry': 'true' },
            requestID: null,
            error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
          },
          retryInMs,
          retryAttempt: attempt,
          maxRetries: 10,
        },
        {},
      );
      m.tick(retryInMs);
    }
  }

  // -------------------------------------------------------------------------------------------
  // API calls.

  /** Writes one main-thread API call and its tool results. Returns true when the user rejected a tool. */
  private mainCall(call: CallPlan, closing: boolean): boolean {
    const m = this.main;
    const blocks: JsonObject[] = [];
    const tokens: number[] = [];
    if (call.thinking) {
      blocks.push(createThinkingBlock(this.rng, call.thinking));
      tokens.push(countTokens(call.thinking));
    }
    if (call.text) {
      blocks.push({ type: 'text', text: call.text });
      tokens.push(countTokens(call.text));
    }
    const env = {
      rng: this.rng,
      project: this.project,
      spec: this.spec,
      sessionId: this.sessionId,
      todos: this.todos,
    };
    const uses: { id: string; outcome?: ToolOutcome; task?: { description: string; prompt: string } }[] = [];
    for (const action of call.tools) {
      const id = randomToolUseId(this.rng);
      if (action.tool === 'Task') {
        const task = {
          description: 'Trace diagnostics flow',
          prompt:
            'Trace how diagnostics flow through this codebase: where tokenizeLine() creates them, how parseJournal() adds structural ones, and how src/cli.ts prints them and chooses exit codes. Read-only: do not modify files. Report the flow step by step with file paths and function names, and point out any inconsistency between commands.',
        };
        blocks.push({ type: 'tool_use', id, name: 'Task', input: { ...task, subagent_type: 'Explore' } });
        tokens.push(countTokens(JSON.stringify(task)) + 12);
        uses.push({ id, task });
        continue;
      }
      const outcome = runTool(env, action);
      blocks.push({ type: 'tool_use', id, name: outcome.name, input: outcome.input });
      tokens.push(countTokens(JSON.stringify(outcome.input)) + 12);
      uses.push({ id, outcome });
    }
    if (blocks.length === 0) {
      blocks.push({ type: 'text', text: 'Done.' });
      tokens.push(2);
    }
    const output = tokens.reduce((a, b) => a + b, 0);
    const latency = this.rng.int(1200, 4200);
    const usage = takeUsage(this.rng, this.acct, m.clockMs + latency, output);
    const written = m.response(
      MAIN_MODEL,
      usage,
      streamBlocks(this.rng, blocks, tokens, latency, MS_PER_OUTPUT_TOKEN),
      closing || uses.length === 0 ? 'end_turn' : 'tool_use',
    );
    this.apiCalls++;
    this.turnMessages += blocks.length;
    // One line per block: what follows the first line is pending until the next request.
    this.pendingEstimate = estimateContentTokens(blocks.slice(1));

    const toolLines = written.uuids.slice(blocks.length - uses.length);
    let rejected = false;
    const changed: { path: string; toolUseId: string; tool: string }[] = [];
    uses.forEach((use, i) => {
      const source = toolLines[i] as string;
      if (use.task) {
        this.writeResult(use.id, runExploreAgent(this, use.id, use.task, source, written), source);
        return;
      }
      const o = use.outcome as ToolOutcome;
      if (o.slow) {
        // One snapshot per long command, on a side branch from the tool_use line.
        m.tick(1000);
        m.progress(
          {
            type: 'bash_progress',
            output: '',
            fullOutput: '',
            elapsedTimeSeconds: 1,
            totalLines: 0,
            timeoutMs: 120_000,
          },
          'bash-progress-0',
          use.id,
          source,
        );
      }
      m.tick(o.executionMs);
      this.writeResult(use.id, o, source);
      if (o.changed) changed.push({ path: o.changed, toolUseId: use.id, tool: o.name });
      if (
        o.isError &&
        typeof o.toolUseResult === 'string' &&
        o.toolUseResult.includes("doesn't want to proceed")
      )
        rejected = true;
      if (o.isError && o.name === 'Bash' && this.spec.failFirst) {
        this.log.errors.push({
          what: `Test failure: ${this.spec.failFirst.name}`,
          fix: this.spec.failFirst.fix,
        });
      }
      if (o.isError && o.name === 'Edit' && !rejected) {
        this.log.errors.push({
          what: `Edit of ${(o.input.file_path as string).replace(`${PROJECT_CWD}/`, '')} failed: string to replace not found`,
          fix: 'the old_string had the wrong indentation; re-read the file and retried with the exact text',
        });
      }
    });
    // PostToolUse format hook after file changes, chained (docs/sources.md#fmt-entry-types `hook_progress`).
    for (const c of changed) {
      if (!c.path.startsWith('src/')) continue;
      m.tick(this.rng.int(20, 120));
      m.parent = m.progress(
        {
          type: 'hook_progress',
          hookEvent: 'PostToolUse',
          hookName: `PostToolUse:${c.tool}`,
          command: 'npx biome format --write',
        },
        c.toolUseId,
        c.toolUseId,
        m.parent,
      );
    }
    m.gitBranch = this.project.branch;
    return rejected;
  }

  private writeResult(toolUseId: string, o: ToolOutcome, source: string): void {
    const m = this.main;
    m.toolResult({
      toolUseId,
      content: o.content,
      isError: o.isError,
      toolUseResult: o.toolUseResult,
      sourceUuid: source,
      promptId: this.promptId,
    });
    this.turnMessages++;
    const added = countTokens(typeof o.content === 'string' ? o.content : JSON.stringify(o.content)) + 6;
    const estimate = estimateContentTokens([{ type: 'tool_result', content: o.content }]);
    this.pendingEstimate += estimate;
    if (this.model.eligibleTools.has(o.name))
      this.live.push({ id: toolUseId, estimate, tokens: added, offset: this.acct.ctx });
    this.acct.ctx += added;
    if (o.name === 'Read') {
      const path = (o.input.file_path as string).replace(`${PROJECT_CWD}/`, '');
      this.recentReads = [{ path, tokens: added }, ...this.recentReads.filter((r) => r.path !== path)].slice(
        0,
        5,
      );
    }
    if (o.changed) {
      this.changedThisTurn.add(o.changed);
      const spec = o.changed;
      const content = readProjectFile(this.project, spec);
      const snippet = content.split('\n').slice(0, 8).join('\n');
      const purpose = FILE_PURPOSES.get(spec) ?? 'helper script';
      const prior = this.log.files.get(spec);
      this.log.files.set(spec, {
        purpose,
        action: prior?.action === 'created' || o.name === 'Write' ? 'created' : 'modified',
        snippet,
      });
    } else if (o.name === 'Read') {
      const path = (o.input.file_path as string).replace(`${PROJECT_CWD}/`, '');
      if (!this.log.files.has(path))
        this.log.files.set(path, {
          purpose: FILE_PURPOSES.get(path) ?? 'project file',
          action: 'read',
          snippet: '',
        });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Subagent (Task → Explore).

  // -------------------------------------------------------------------------------------------
  // Compaction.

  /** The story asks for `/compact` at one prompt; it runs there or at the first prompt after it where it can. */
  private shouldManualCompact(): boolean {
    return (
      this.features.manualCompact &&
      this.manualPending &&
      !this.manualDone &&
      this.autoCompactions > 0 &&
      (this.features.microcompact
        ? this.microCall !== undefined && this.apiCalls >= this.microCall + 3
        : true)
    );
  }

  /**
   * What the replay model does after the last call, before the next request (which carries
   * `upcomingTokens` more, estimated: the prompt about to be sent). Returns whether it acted.
   */
  private applyModel(upcomingTokens: number, upcomingImage: boolean): boolean {
    const a = this.acct;
    // Nothing was sent since the session started or compacted.
    if (a.lastContext === 0) return false;
    const { knobs, thresholds } = this.model;
    const usage = a.lastContext + a.lastOutput;
    const count = usage + (knobs.countPendingMessages ? this.pendingEstimate + upcomingTokens : 0);
    if (knobs.autoCompactEnabled && count >= thresholds.autoCompact) {
      this.compact('auto', count);
      return true;
    }
    // Microcompact looks at the usage alone (docs/replay-accuracy.md).
    if (!knobs.microcompactEnabled || knobs.microcompactVariant !== 'v2.1.68' || usage < thresholds.warning)
      return false;
    // A pasted image in the prompt about to be sent is the newest item (always kept).
    const upcoming: ClearableItem[] =
      upcomingImage && knobs.microcompactClearImages
        ? [{ id: '', estimate: TOKENS_PER_IMAGE, tokens: 0, offset: a.ctx }]
        : [];
    const selection = selectClearable(this.model, [...this.live, ...upcoming]);
    if (!selection) return false;
    this.microcompact(selection.items, selection.savings, usage);
    return true;
  }

  /** Once, before the first auto-compaction (after the first microcompaction when there is one). */
  private shouldReadExports(): boolean {
    if (!this.features.specials || this.exportsRead || this.autoCompactions > 0) return false;
    if (this.features.microcompact && this.microCall === undefined) return false;
    const usage = this.acct.lastContext + this.acct.lastOutput;
    return usage >= this.model.thresholds.warning - EXPORT_READ_BELOW_WARNING_TOKENS;
  }

  /** The exports turn: three CSV files read in parallel, sized to carry the count over the threshold. */
  private planExportRead(): CallPlan[] {
    this.exportsRead = true;
    const request = this.acct.ctx + countTokens(EXPORTS_SPEC.text) + 6;
    const need =
      this.model.thresholds.autoCompact + EXPORT_READ_MARGIN_TOKENS - request - this.acct.lastOutput;
    const paths = EXPORT_FILES.map((f) => f.path);
    paths.forEach((path, i) => {
      const content = createBankExport(
        this.rng,
        EXPORT_FILES[i] as ExportFile,
        Math.ceil(need / paths.length),
      );
      this.project.files.set(path, content);
      this.project.revisions.set(path, 1);
    });
    return [
      {
        thinking: EXPORTS_SPEC.plan,
        text: "I'll read all three exports at once.",
        tools: paths.map((path) => ({ tool: 'Read' as const, path })),
      },
      { text: EXPORTS_SPEC.done, tools: [] },
    ];
  }

  /** Restored context after a compaction: the most recently read files, newest first, capped. */
  private restoredTokens(): number {
    let total = 0;
    for (const r of this.recentReads) {
      if (total + r.tokens > RESTORED_FILES_MAX_TOKENS) break;
      total += r.tokens;
    }
    return total;
  }

  /** `preTokens`: the count that triggered it (auto), else the last usage. */
  private compact(trigger: 'auto' | 'manual', preTokensOverride?: number, customInstructions?: string): void {
    const m = this.main;
    const preTokens = preTokensOverride ?? this.acct.lastContext + this.acct.lastOutput;
    const startedMs = m.clockMs + (trigger === 'manual' ? this.rng.int(15_000, 90_000) : 0);
    m.clockMs = startedMs;
    const summary = formatCompactSummary(this.log, this.sessionId, trigger, customInstructions);
    const durationMs = writeCompactionCall(this, preTokens, customInstructions);
    const commandUuid = randomUuid(this.rng);
    if (trigger === 'manual') m.raw(this.fileHistorySnapshot(commandUuid));
    m.tick(durationMs);
    const boundary = m.system(
      'compact_boundary',
      { content: 'Conversation compacted', isMeta: false },
      {
        parentUuid: null,
        logicalParentUuid: m.parent ?? undefined,
        tail: { level: 'info', compactMetadata: { trigger, preTokens } },
      },
    );
    m.user(summary, {
      parentUuid: boundary,
      before: { isVisibleInTranscriptOnly: true, isCompactSummary: true },
    });
    let restored = this.restoredTokens();
    if (trigger === 'manual') {
      // The /compact command's own lines come after the summary, with the time it was typed.
      const typedAt = m.iso(startedMs);
      m.user(
        '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>',
        { timestamp: typedAt, before: { isMeta: true } },
      );
      m.user(
        `<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args>${customInstructions ?? ''}</command-args>`,
        { timestamp: typedAt, uuid: commandUuid },
      );
      m.tick(this.rng.int(60, 160));
      m.user(
        '<local-command-stdout>\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m</local-command-stdout>',
      );
      m.attachment({
        type: 'compact_file_reference',
        filename: abs('src/journal/parser.ts'),
        displayPath: 'src/journal/parser.ts',
      });
      restored = 0;
      for (const path of ['src/journal/lexer.ts', 'src/journal/ast.ts']) {
        const content = readProjectFile(this.project, path);
        const numLines = content.split('\n').length - 1;
        m.attachment({
          type: 'file',
          filename: abs(path),
          content: {
            type: 'text',
            file: { filePath: abs(path), content, numLines, startLine: 1, totalLines: numLines },
          },
          displayPath: path,
        });
        restored += countTokens(content);
      }
      this.manualDone = true;
      this.log.userMessages.push(`/compact ${customInstructions ?? ''}`.trim());
    } else {
      this.autoCompactions++;
    }
    this.acct.ctx = SYSTEM_PROMPT_TOKENS + countTokens(summary) + restored;
    this.acct.cachedPrefix = SYSTEM_PROMPT_TOKENS;
    this.acct.lastContext = 0;
    this.acct.lastOutput = 0;
    this.live = [];
  }

  /** Clears `items` (model-selected, oldest first); `savings` is Claude Code's estimate of what it frees. */
  private microcompact(items: ClearableItem[], savings: number, preTokens: number): void {
    const toolIds = items.filter((c) => !c.id.includes(':image:')).map((c) => c.id);
    const images = items.filter((c) => c.id.includes(':image:')).map((c) => c.id.slice(0, c.id.indexOf(':')));
    this.main.tick(this.rng.int(5, 40));
    this.main.system(
      'microcompact_boundary',
      { content: 'Context microcompacted', isMeta: false },
      {
        tail: {
          level: 'info',
          microcompactMetadata: {
            trigger: 'auto',
            preTokens,
            tokensSaved: savings,
            compactedToolIds: toolIds,
            clearedAttachmentUUIDs: images,
          },
        },
      },
    );
    // Each cleared result keeps its placeholder (and its tool_result envelope).
    const placeholder = countTokens(CLEARED_PLACEHOLDER) + 6;
    let saved = 0;
    for (const c of items) saved += Math.max(0, c.tokens - placeholder);
    this.acct.ctx -= saved;
    this.acct.cachedPrefix = Math.min(this.acct.cachedPrefix, (items[0] as ClearableItem).offset);
    const ids = new Set(items.map((c) => c.id));
    this.live = this.live.filter((l) => !ids.has(l.id));
    this.microCall ??= this.apiCalls;
  }

  private trimLog(): void {
    // Long benchmark sessions: summaries keep the recent history, as real ones condense.
    const cap = <T>(items: T[], n: number): void => {
      if (items.length > n) items.splice(0, items.length - n);
    };
    cap(this.log.userMessages, 40);
    cap(this.log.intents, 40);
    cap(this.log.errors, 12);
    this.log.pendingTodos = this.todos.filter((t) => t.status !== 'completed').map((t) => t.content);
  }
}

const FILE_PURPOSES = new Map<string, string>(FILES.map((f) => [f.path, f.purpose]));

function promptContent(text: string, withImage: boolean): string | JsonObject[] {
  return withImage
    ? [
        { type: 'text', text },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SCREENSHOT_PNG_BASE64 } },
      ]
    : text;
}

interface ExportFile {
  path: string;
  bank: string;
  currency: string;
}

const EXPORT_FILES: readonly ExportFile[] = [
  { path: 'data/exports/girokonto-2025.csv', bank: 'Girokonto', currency: 'EUR' },
  { path: 'data/exports/credit-card-2025.csv', bank: 'Credit card', currency: 'EUR' },
  { path: 'data/exports/savings-usd-2025.csv', bank: 'Savings', currency: 'USD' },
];

/** A bank's CSV export whose Read result is about `estimateTokens` (Claude Code's estimate), at most 2,000 lines. */
function createBankExport(rng: Rng, file: ExportFile, estimateTokens: number): string {
  const lines = ['date;payee;memo;amount;currency;balance'];
  let chars = 0;
  let balance = rng.int(800_00, 4_000_00);
  for (let day = 0; chars < estimateTokens * 4 && lines.length < READ_MAX_LINES; day++) {
    const date = new Date(Date.UTC(2025, 0, 1) + Math.floor(day / 6) * 86_400_000).toISOString().slice(0, 10);
    const cents = -rng.int(150, 18_000) * (rng.chance(0.08) ? -12 : 1);
    balance += cents;
    const amount = `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
    const line = `${date};${rng.pick(PAYEES)};${file.bank} ${rng.pick(CATEGORIES)};${amount};${file.currency};${(balance / 100).toFixed(2)}`;
    lines.push(line);
    // `formatNumbered` prefixes each line with its number and an arrow (7 characters).
    chars += line.length + 8;
  }
  return `${lines.join('\n')}\n`;
}

/** The user's bank exports, read in one go (see EXPORT_READ_BELOW_WARNING_TOKENS). */
const EXPORTS_SPEC: PromptSpec = {
  text: "I dropped last year's bank exports into data/exports/. Read all three and tell me what an importer would have to handle before we write one.",
  intent: 'Survey the 2025 bank exports in data/exports/ before writing an importer',
  concepts: ['bank CSV exports: semicolon separators, decimal commas, one currency per file'],
  plan: 'Three CSV exports, one per account. I should read them side by side to compare the columns, separators and number formats before designing an importer.',
  done: 'All three exports share one layout: `date;payee;memo;amount;currency;balance`, semicolon-separated, with decimal commas in `amount` and decimal points in `balance`. The savings account is in USD, the others in EUR. An importer has to map the memo to a category, convert the decimal commas, and check the running balance against the journal. Refunds show up as positive amounts.',
};
