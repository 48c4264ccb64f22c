// The two kinds of subagent file a 2.1.x session has besides the main transcript: an Explore
// agent run by the Task tool (docs/sources.md#fmt-subagents) and the compaction call (docs/sources.md#fmt-around-compaction).

import {
  type Account,
  countTokens,
  EXPLORE_MODEL,
  EXPLORE_SYSTEM_TOKENS,
  MAIN_MODEL,
  MS_PER_OUTPUT_TOKEN,
  streamBlocks,
  takeUsage,
} from './accounting';
import type { CallPlan } from './plan';
import { randomHex, randomToolUseId, type Rng } from './prng';
import { PROJECT_CWD } from './project-files';
import type { PromptSpec } from './story';
import { formatCompactionAnswer, formatCompactionPrompt, type WorkLog } from './summary';
import { type ProjectState, runTool, type TodoItem, type ToolOutcome } from './tools';
import {
  createUsageJson,
  type JsonObject,
  TranscriptWriter,
  type UsageTokens,
  type WrittenResponse,
} from './transcript-writer';

/** What a side agent needs from the session that spawns it. */
interface SideAgentHost {
  readonly rng: Rng;
  readonly sessionId: string;
  readonly version: string;
  readonly slug: string;
  readonly main: TranscriptWriter;
  readonly project: ProjectState;
  readonly spec: PromptSpec;
  readonly log: WorkLog;
  /** Hands over finished lines of another file. */
  emitOther(file: string, lines: string[]): void;
}

const EXPLORE_REPORT = [
  'Diagnostics flow, step by step:',
  '',
  '1. **Lexer** (`src/journal/lexer.ts`): `tokenizeLine(text, line, diagnostics)` receives the shared array and pushes lexical problems itself: `bad-date` when a line starts with digits that are not a valid ISO date, `bad-amount` when the text after the separator does not parse. Column numbers are 1-based and point at the start of the offending token.',
  '2. **Parser** (`src/journal/parser.ts`): `parseJournal()` creates the array, passes it to every `tokenizeLine()` call, and adds structural problems when a transaction closes: `unbalanced`, `two-inferred-amounts`, and `posting-without-transaction` for indented lines before the first date line. After an error it skips to the next date line.',
  '3. **Codes and printing** (`src/journal/errors.ts`): `CODES` holds every code; `formatDiagnostic()` renders `file:line:column: severity code: message` plus the source line with a caret.',
  '4. **CLI** (`src/cli.ts`): `main()` prints diagnostics only inside the `check` branch. `balance`, `report` and `export` ignore `journal.diagnostics` entirely and exit 0 even when lines were skipped.',
  '',
  'Inconsistency: only `check` reports errors or sets exit code 1; the other commands silently work on a partial journal.',
].join('\n');

/**
 * Runs the Explore subagent for a Task tool_use: writes its sidechain file, mirrors its messages
 * into the main file as agent_progress entries, and returns the Task's tool result.
 */
export function runExploreAgent(
  host: SideAgentHost,
  toolUseId: string,
  task: { description: string; prompt: string },
  source: string,
  parentCall: WrittenResponse,
): ToolOutcome {
  const m = host.main;
  const agentId = `a${randomHex(host.rng, 16)}`;
  const file = `${host.sessionId}/subagents/agent-${agentId}.jsonl`;
  const w = new TranscriptWriter({
    rng: host.rng,
    sessionId: host.sessionId,
    cwd: PROJECT_CWD,
    version: host.version,
    gitBranch: m.gitBranch,
    slug: host.slug,
    startMs: m.clockMs + host.rng.int(200, 900),
    agentId,
  });
  const acct: Account = {
    ctx: EXPLORE_SYSTEM_TOKENS + countTokens(task.prompt),
    cachedPrefix: 0,
    lastContext: 0,
    lastOutput: 0,
  };
  w.user(task.prompt, { parentUuid: null });
  const env = {
    rng: host.rng,
    project: host.project,
    spec: host.spec,
    sessionId: host.sessionId,
    todos: [] as TodoItem[],
  };
  const steps: CallPlan[] = [
    {
      text: "I'll trace the diagnostics flow from the lexer to the CLI.",
      tools: [{ tool: 'Glob', pattern: 'src/**/*.ts' }],
    },
    {
      tools: [
        { tool: 'Read', path: 'src/journal/lexer.ts' },
        { tool: 'Read', path: 'src/journal/parser.ts' },
        { tool: 'Read', path: 'src/journal/errors.ts' },
      ],
    },
    {
      text: 'Now let me see where diagnostics are pushed and printed.',
      tools: [{ tool: 'Grep', path: 'src/journal/errors.ts' }],
    },
    { tools: [{ tool: 'Read', path: 'src/cli.ts' }] },
    { text: EXPLORE_REPORT, tools: [] },
  ];
  let toolUses = 0;
  let lastUsage: UsageTokens = { input: 0, cacheCreation: 0, cacheRead: 0, output: 0 };
  for (const step of steps) {
    const blocks: JsonObject[] = [];
    const tokens: number[] = [];
    if (step.text) {
      blocks.push({ type: 'text', text: step.text });
      tokens.push(countTokens(step.text));
    }
    const outcomes: { id: string; o: ToolOutcome }[] = [];
    for (const action of step.tools) {
      if (action.tool === 'Task') continue;
      const id = randomToolUseId(host.rng);
      const o = runTool(env, action);
      blocks.push({ type: 'tool_use', id, name: o.name, input: o.input });
      tokens.push(countTokens(JSON.stringify(o.input)) + 12);
      outcomes.push({ id, o });
    }
    const output = tokens.reduce((a, b) => a + b, 0);
    const latency = host.rng.int(600, 1800);
    lastUsage = takeUsage(host.rng, acct, w.clockMs + latency, output);
    // Haiku streams about three times faster than the main model.
    const written = w.response(
      EXPLORE_MODEL,
      lastUsage,
      streamBlocks(host.rng, blocks, tokens, latency, 5),
      outcomes.length ? 'tool_use' : 'end_turn',
    );
    const lines = written.uuids.slice(blocks.length - outcomes.length);
    outcomes.forEach(({ id, o }, i) => {
      w.tick(o.executionMs);
      w.toolResult({
        toolUseId: id,
        content: o.content,
        isError: o.isError,
        toolUseResult: o.toolUseResult,
        sourceUuid: lines[i] as string,
      });
      acct.ctx += countTokens(typeof o.content === 'string' ? o.content : JSON.stringify(o.content)) + 6;
      toolUses++;
    });
  }
  const subLines = w.drain();
  // agent_progress entries mirror the subagent's messages inside the main file, on a side
  // branch from the Task tool_use (docs/sources.md#fmt-subagents: count them once).
  let parent: string | null = source;
  for (const line of subLines) {
    const record = JSON.parse(line) as JsonObject;
    if (record.type !== 'assistant' && record.parentUuid !== null) continue;
    m.clockMs = Math.max(m.clockMs, Date.parse(record.timestamp as string));
    parent = m.progress(
      {
        message: {
          type: record.type,
          message: record.message,
          uuid: record.uuid,
          timestamp: record.timestamp,
        },
        normalizedMessages: [],
        type: 'agent_progress',
        prompt: task.prompt,
        agentId,
      },
      `agent_${parentCall.messageId}`,
      toolUseId,
      parent,
    );
  }
  host.emitOther(file, subLines);
  m.clockMs = Math.max(m.clockMs, w.clockMs) + host.rng.int(100, 400);
  const durationMs = m.clockMs - (Date.parse(JSON.parse(subLines[0] as string).timestamp) - 300);
  const content = [
    { type: 'text', text: EXPLORE_REPORT },
    { type: 'text', text: `agentId: ${agentId} (for resuming to continue this agent's work if needed)` },
  ];
  return {
    name: 'Task',
    input: task,
    content,
    toolUseResult: {
      status: 'completed',
      prompt: task.prompt,
      agentId,
      content: [content[0]],
      totalDurationMs: durationMs,
      totalTokens: lastUsage.input + lastUsage.cacheCreation + lastUsage.cacheRead + lastUsage.output,
      totalToolUseCount: toolUses,
      usage: createUsageJson(lastUsage, lastUsage.output),
    },
    isError: false,
    executionMs: 0,
  };
}

/** The compaction request as a subagent file (2.1.37+, docs/sources.md#fmt-around-compaction). Returns its duration. */
export function writeCompactionCall(
  host: SideAgentHost,
  preTokens: number,
  customInstructions?: string,
): number {
  const m = host.main;
  const agentId = `acompact-${randomHex(host.rng, 16)}`;
  const w = new TranscriptWriter({
    rng: host.rng,
    sessionId: host.sessionId,
    cwd: PROJECT_CWD,
    version: host.version,
    gitBranch: m.gitBranch,
    slug: host.slug,
    startMs: m.clockMs + host.rng.int(50, 300),
    agentId,
  });
  const prompt = formatCompactionPrompt(customInstructions);
  w.user(prompt, { parentUuid: null });
  const answer = formatCompactionAnswer(host.log, customInstructions);
  const output = countTokens(answer);
  const input = 3;
  // Its own short system prompt is cached; the conversation is written to the cache anew
  // (docs/sources.md#fmt-around-compaction: e.g. 170,469 created, 10,495 read).
  const cacheRead = host.rng.int(9_000, 11_000);
  const total = preTokens + countTokens(prompt);
  const usage: UsageTokens = { input, cacheRead, cacheCreation: total - input - cacheRead, output };
  const latency = host.rng.int(2000, 5000);
  w.response(
    MAIN_MODEL,
    usage,
    streamBlocks(host.rng, [{ type: 'text', text: answer }], [output], latency, MS_PER_OUTPUT_TOKEN),
    'end_turn',
  );
  host.emitOther(`${host.sessionId}/subagents/agent-${agentId}.jsonl`, w.drain());
  return w.clockMs - m.clockMs + host.rng.int(200, 800);
}
