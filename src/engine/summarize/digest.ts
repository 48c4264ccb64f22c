import {
  getBlocks,
  getToolResultText,
  isTextBlock,
  isToolResultBlock,
  isToolUseBlock,
  type ToolResultBlock,
  type ToolUseBlock,
} from './blocks';
import type {
  FileToolSpec,
  FileTouchRead,
  TodoItem,
  TranscriptConventions,
} from '../parse/dialects/descriptor';
import { DIALECT_INFOS } from '../parse/dialects/descriptors';
import { DIALECTS } from '../parse/dialects/registry';
import type { RequestMessage } from './types';

// The structure of a span, read from the request's messages the way a person would skim them:
// what the user said, which files were touched, which commands ran, what failed and what came
// next, the todo list. The built-in summarizer renders it; retention extracts facts from it.

type UserMessageKind = 'request' | 'command' | 'previous-summary' | 'interrupt';

interface UserMessage {
  /** Index of the message in the request. */
  index: number;
  kind: UserMessageKind;
  text: string;
}

interface FileTouch {
  path: string;
  reads: number;
  edits: number;
  writes: number;
  deletes: number;
  /** Message index of the last touch. */
  lastIndex: number;
}

interface CommandRun {
  command: string;
  description?: string;
  index: number;
  /** The result was an error (non-zero exit and similar). */
  failed: boolean;
}

interface ToolError {
  tool: string;
  /** What the call was aimed at: a path, a command, a pattern. */
  target?: string;
  message: string;
  index: number;
  /** The next action after the error, e.g. "Edit src/a.ts (succeeded)". */
  followUp?: string;
}

/**
 * A request's messages do not say which agent wrote them: every dialect's conventions are asked
 * (each recognises only its own wrappers and commands).
 */
const CONVENTIONS: readonly TranscriptConventions[] = DIALECT_INFOS.flatMap((d) =>
  d.transcript ? [d.transcript] : [],
);

export interface SpanDigest {
  messages: number;
  userMessages: UserMessage[];
  /** In order of first touch. */
  files: FileTouch[];
  commands: CommandRun[];
  errors: ToolError[];
  /** The latest todo list (a dialect's todo tools: Claude Code's TodoWrite, TaskCreate/TaskUpdate). */
  todos: TodoItem[];
  toolCounts: Record<string, number>;
  assistantTexts: { index: number; text: string }[];
  /** The last actions, oldest first ("Read src/a.ts", "Bash: npm test (failed)"). */
  recentActions: string[];
  /** The last user message that asks for something (not a command or interruption). */
  lastRequest?: UserMessage;
}

/** Actions kept in `recentActions`. */
const RECENT_ACTIONS = 8;

type ToolUse = ToolUseBlock;
type ToolResult = ToolResultBlock;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Collapses whitespace and cuts to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Strips the wrappers agents add around user text (system reminders and similar). */
export function stripReminders(text: string): string {
  let out = text;
  for (const c of CONVENTIONS) if (c.stripInjected) out = c.stripInjected(out);
  return out.trim();
}

/**
 * An answer's text without the reasoning a model wrote into it: `<think>…</think>`, as models
 * behind OpenAI-compatible servers (DeepSeek, Qwen) write it inline (a real pi session on them: the
 * built-in summary quoted "Wait, the user said…" as a decision). A `</think>` with no opening before
 * it ends reasoning that began with the answer (the chat template opened it in the prompt); an
 * unclosed `<think>` runs to the end (a cut answer). One forward scan (ours).
 */
export function stripInlineReasoning(text: string): string {
  const firstClose = text.indexOf('</think>');
  if (firstClose < 0 && !text.includes('<think>')) return text;
  const firstOpen = text.indexOf('<think>');
  let out = '';
  let at = firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen) ? firstClose + 8 : 0;
  for (;;) {
    const open = text.indexOf('<think>', at);
    if (open < 0) return out + text.slice(at);
    out += text.slice(at, open);
    const close = text.indexOf('</think>', open + 7);
    if (close < 0) return out;
    at = close + 8;
  }
}

/** Classifies and cleans one user text; undefined when nothing a person typed is left. */
export function readUserText(raw: string): { kind: UserMessageKind; text: string } | undefined {
  const text = stripReminders(raw);
  if (text === '') return undefined;
  // The person's words inside a tool's result (Cline's feedback and answers: a real task's span
  // read 3 user messages where the person wrote 10).
  for (const c of CONVENTIONS) {
    const words = c.readPersonInResult?.(text);
    if (words) return { kind: 'request', text: words };
  }
  // Text the agent wrote into the person's turn (a tool's result as text, command output): the
  // parse does not count it as a turn either.
  if (CONVENTIONS.some((c) => c.isInjectedUserText?.(text))) return undefined;
  for (const c of CONVENTIONS) {
    const read = c.readUserText?.(text);
    if (read === null) return undefined;
    if (read) return read;
  }
  return { kind: 'request', text };
}

/**
 * The input keys a tool names a path with, to say what a call aims at (its file tools' own keys
 * are their dialects' `fileTools`): Claude Code's `file_path` and `notebook_path`, Cline's and
 * pi's `path`, Gemini CLI's `absolute_path`, OpenCode's `filePath`, Cline's `absolutePath`.
 */
const FILE_PATH_KEYS = [
  'file_path',
  'notebook_path',
  'path',
  'absolute_path',
  'filePath',
  'absolutePath',
] as const;

/**
 * Every dialect's file tools by name. A request's messages do not say which agent wrote them, so
 * every dialect's are asked; two agents' tools of one name (Gemini CLI's and Cline's `read_file`)
 * differ by their input's keys, and the first that names a file wins.
 */
const FILE_TOOLS: ReadonlyMap<string, readonly FileToolSpec[]> = (() => {
  const byName = new Map<string, FileToolSpec[]>();
  for (const dialect of DIALECTS)
    for (const spec of dialect.fileTools ?? []) {
      const list = byName.get(spec.name) ?? [];
      if (!list.includes(spec)) list.push(spec);
      byName.set(spec.name, list);
    }
  return byName;
})();

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The files a call reads or changes, as its agent's own tool says (dialect descriptors'
 * `fileTools`): a tool no dialect lists touches none, whatever its name suggests. A path holding
 * a control character is left out: it is transcript text that would reach a terminal or a model
 * as a listed file (ours: no file of the corpora has one).
 */
function readToolFiles(use: { name: string; input: unknown }): FileTouchRead[] {
  for (const spec of FILE_TOOLS.get(use.name) ?? []) {
    if (spec.readFiles) {
      const files = spec.readFiles(use.input).filter((f) => !CONTROL.test(f.path));
      if (files.length) return files;
    }
    if (spec.action && spec.pathKeys && isObject(use.input))
      for (const key of spec.pathKeys) {
        const path = str(use.input[key]);
        if (path && !CONTROL.test(path)) return [{ path, action: spec.action }];
      }
  }
  return [];
}

/** The path a file tool works on, if any. */
function getToolPath(input: unknown): string | undefined {
  if (!isObject(input)) return undefined;
  for (const key of FILE_PATH_KEYS) {
    const path = str(input[key]);
    if (path) return path;
  }
  return undefined;
}

/** A short description of what a tool call aims at. */
function describeToolTarget(use: ToolUse): string | undefined {
  const input = use.input;
  if (!isObject(input)) return undefined;
  const command = getCommandText(input);
  if (command) return clip(command, 160);
  const path = getToolPath(input);
  const pattern = str(input.pattern);
  if (pattern) return path ? `${pattern} in ${path}` : pattern;
  if (path) return path;
  // A patch's files (Codex's apply_patch).
  const touched = readToolFiles(use);
  if (touched.length) return clip(touched.map((f) => f.path).join(', '), 160);
  const other =
    str(input.url) ?? str(input.query) ?? str(input.description) ?? str(input.subject) ?? str(input.prompt);
  return other ? clip(other, 120) : undefined;
}

const TOUCH_COUNT = { read: 'reads', edit: 'edits', write: 'writes', delete: 'deletes' } as const;

/**
 * A shell call's command line: `command` or `cmd` as a string, or an argv (Codex's `shell`,
 * `["bash", "-lc", script]` read as its script).
 */
function getCommandText(input: Json): string | undefined {
  const command = input.command ?? input.cmd;
  if (typeof command === 'string') return command || undefined;
  if (!Array.isArray(command) || !command.every((w) => typeof w === 'string')) return undefined;
  const argv = command as string[];
  if (argv.length === 3 && /^(?:.*\/)?(?:ba|z|da)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!))
    return argv[2] || undefined;
  return argv.join(' ') || undefined;
}

/** A call the request carries as the model's text (Cline's UI log), as a dialect reads it back. */
function readToolCallText(text: string): { name: string; input: unknown } | undefined {
  for (const c of CONVENTIONS) {
    const call = c.readToolCallText?.(text);
    if (call) return call;
  }
  return undefined;
}

function firstLines(text: string, lines: number, max: number): string {
  const kept = text
    .replace(/<\/?tool_use_error>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(0, lines)
    .join(' ⏎ ');
  return clip(kept, max);
}

/** The todo list after a tool call: the first dialect whose todo tool it is says. */
function applyTodoTool(
  use: ToolUse,
  todos: TodoItem[],
  tasks: Map<string, TodoItem>,
  resultText?: string,
): TodoItem[] {
  for (const c of CONVENTIONS) {
    const next = c.applyTodoTool?.(use, todos, tasks, resultText);
    if (next) return next;
  }
  return todos;
}

/** Reads a span's structure from its request messages. */
export function computeSpanDigest(messages: RequestMessage[]): SpanDigest {
  const digest: SpanDigest = {
    messages: messages.length,
    userMessages: [],
    files: [],
    commands: [],
    errors: [],
    todos: [],
    toolCounts: {},
    assistantTexts: [],
    recentActions: [],
  };
  const uses = new Map<string, { use: ToolUse; index: number }>();
  const results = new Map<string, ToolResult>();
  for (const message of messages) {
    for (const block of getBlocks(message))
      if (isToolResultBlock(block)) results.set(block.tool_use_id, block);
  }
  const files = new Map<string, FileTouch>();
  const tasks = new Map<string, TodoItem>();
  const actions: { index: number; text: string }[] = [];
  /** Errors still waiting for the next action. */
  let awaitingFollowUp: ToolError[] = [];

  const followUp = (text: string) => {
    for (const error of awaitingFollowUp) error.followUp = text;
    awaitingFollowUp = [];
  };
  /** A call's action, its file and command, and the todo list after it (`result`: its paired one). */
  const addCall = (use: ToolUse, index: number, result: ToolResult | undefined) => {
    const failed = result?.is_error === true;
    const target = describeToolTarget(use);
    actions.push({ index, text: `${use.name}${target ? ` ${target}` : ''}${failed ? ' (failed)' : ''}` });
    for (const { path, action } of readToolFiles(use)) {
      let touch = files.get(path);
      if (!touch) {
        touch = { path, reads: 0, edits: 0, writes: 0, deletes: 0, lastIndex: index };
        files.set(path, touch);
      }
      touch[TOUCH_COUNT[action]]++;
      touch.lastIndex = index;
    }
    const input = isObject(use.input) ? use.input : {};
    const command = getCommandText(input);
    if (command && /bash|shell|exec|command/i.test(use.name)) {
      digest.commands.push({ command, description: str(input.description), index, failed });
    }
    digest.todos = applyTodoTool(use, digest.todos, tasks, result ? getToolResultText(result) : undefined);
  };

  messages.forEach((message, index) => {
    for (const block of getBlocks(message)) {
      if (message.role === 'user' && isTextBlock(block)) {
        const read = readUserText(block.text);
        if (read) {
          const last = digest.userMessages.at(-1);
          // Text blocks of one message that belong together (e.g. a pasted block split in two).
          if (last && last.index === index && last.kind === 'request' && read.kind === 'request') {
            last.text = `${last.text}\n\n${read.text}`;
          } else digest.userMessages.push({ index, ...read });
          if (read.kind === 'request' || read.kind === 'interrupt')
            followUp(`the user wrote: "${clip(read.text, 100)}"`);
        }
      } else if (message.role === 'assistant' && isTextBlock(block)) {
        const text = stripInlineReasoning(block.text).trim();
        // A call written as text (Cline's UI log: its result comes back as the next request's
        // text, unpaired): counted with the others; a real Cline task's 15 calls read 0 before.
        const call = readToolCallText(text);
        if (call) {
          const use: ToolUse = { type: 'tool_use', id: `text-call:${index}`, ...call };
          digest.toolCounts[use.name] = (digest.toolCounts[use.name] ?? 0) + 1;
          const target = describeToolTarget(use);
          followUp(`${use.name}${target ? ` ${target}` : ''}`);
          addCall(use, index, undefined);
        } else if (text) digest.assistantTexts.push({ index, text });
      } else if (isToolUseBlock(block)) {
        uses.set(block.id, { use: block, index });
        digest.toolCounts[block.name] = (digest.toolCounts[block.name] ?? 0) + 1;
        const result = results.get(block.id);
        const target = describeToolTarget(block);
        const status = result ? (result.is_error === true ? 'failed too' : 'succeeded') : 'no result yet';
        followUp(`${block.name}${target ? ` ${target}` : ''} (${status})`);
        addCall(block, index, result);
      } else if (isToolResultBlock(block) && block.is_error) {
        const call = uses.get(block.tool_use_id);
        const error: ToolError = {
          tool: call?.use.name ?? 'tool',
          target: call ? describeToolTarget(call.use) : undefined,
          message: firstLines(getToolResultText(block), 3, 400) || '(empty error)',
          index,
        };
        digest.errors.push(error);
        awaitingFollowUp.push(error);
      }
    }
  });
  digest.files = [...files.values()];
  digest.recentActions = actions.slice(-RECENT_ACTIONS).map((a) => a.text);
  digest.lastRequest = digest.userMessages.filter((m) => m.kind === 'request').at(-1);
  return digest;
}
