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
} from './compaction-model';
import { buildPlan, type CallPlan } from './plan';
import { createRng, randomToolUseId, randomUuid, type Rng } from './prng';
import { FILES, PROJECT_CWD } from './project-files';
import { runExploreAgent } from './side-agents';
import { FileHistory, promptContent, writeApiErrors, writeTurnEnd } from './turn-records';
import { createFollowUp, type PromptSpec } from './story';
import { STORY } from './story-prompts';
import { applyModel, compact, shouldManualCompact } from './sim-compaction';
import { EXPORTS_SPEC, planExportRead, shouldReadExports } from './bank-exports';
import { createWorkLog, type WorkLog } from './summary';
import {
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
const DEFAULT_START_MS = Date.UTC(2026, 2, 9, 8, 47, 12, 318);
const WORDS_A = ['ticking', 'humble', 'quiet', 'amber', 'brisk', 'gentle', 'lucky', 'velvet'] as const;
const WORDS_B = ['sailing', 'dancing', 'wandering', 'glowing', 'drifting', 'humming'] as const;
const WORDS_C = ['lantern', 'otter', 'meadow', 'compass', 'harbor', 'teapot', 'falcon'] as const;

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
  // The compaction state below is shared with sim-compaction.ts and bank-exports.ts.
  /** API call count when the first microcompaction happened. */
  microCall?: number;
  manualPending = false;
  manualDone = false;
  exportsRead = false;
  /** Clearable items since the last compaction, not cleared, in call order. */
  live: ClearableItem[] = [];
  /** Estimate of the context entries written since the last response's first line (`pendingEstimate`). */
  pendingEstimate = 0;
  recentReads: { path: string; tokens: number }[] = [];
  /** Files changed this turn and their backups, for the file-history snapshots. */
  readonly fileHistory: FileHistory;
  private promptId = '';
  private turnStartMs = 0;
  private turnMessages = 0;
  spec!: PromptSpec;
  private storyIndex: number;

  constructor(options: GenerateSessionOptions) {
    this.fileHistory = new FileHistory(options.seed);
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
      if (shouldReadExports(this)) {
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
    const fired = applyModel(this, estimateContentTokens(promptContent(spec.text, withImage)), withImage);
    if (!fired && shouldManualCompact(this)) compact(this, 'manual', undefined, 'focus on the parser');

    const budget = this.targetBytes !== undefined ? 1000 : this.targetCalls - this.apiCalls;
    const plan = readExports
      ? planExportRead(this)
      : buildPlan(this.rng, spec, (p) => fileExists(this.project, p), this.features.specials, budget);
    this.writePrompt(spec.text, withImage);
    this.log.intents.push(spec.intent);
    for (const c of spec.concepts) if (!this.log.concepts.includes(c)) this.log.concepts.push(c);
    this.trimLog();

    const queueAt = this.has('queue') ? Math.floor(plan.length / 2) : -1;
    const queued = 'Also make the --tag match case-insensitive, my journals mix #Shared and #shared.';
    for (let i = 0; i < plan.length; i++) {
      const call = plan[i] as CallPlan;
      if (i > 0) applyModel(this, 0, false);
      if (i === 1 && this.has('api-error')) writeApiErrors(this.main, this.rng);
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
    m.raw(this.fileHistory.snapshot(m, this.rng, uuid));
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

  private endTurn(interrupted: boolean): void {
    const m = this.main;
    if (interrupted) {
      m.tick(this.rng.int(300, 1500));
      const content = [{ type: 'text', text: '[Request interrupted by user for tool use]' }];
      m.user(content);
      this.pendingEstimate += estimateContentTokens(content);
      return;
    }
    writeTurnEnd(m, this.rng, this.turnStartMs, this.turnMessages);
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
      this.fileHistory.changed(o.changed);
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
