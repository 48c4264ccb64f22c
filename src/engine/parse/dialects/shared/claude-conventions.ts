import { at } from '../../../assert';
import type { RestorationHints, TodoItem, TranscriptConventions, UserTextKind } from '../descriptor';
import { isObject } from '../record';

// What Claude Code's user texts are (commands, reminders, the continuation summary, todos) and
// what its compaction re-attaches: the same in its session JSONL and in the stream it prints
// (`--output-format stream-json`, the Agent SDK), so both descriptors take them from here
// (docs/sources.md#fmt-envelope–§8, #fmt-sdk-stream).

/** Claude Code's shell tool, by tool_use name. */
export const CLAUDE_CODE_SHELL_TOOLS = ['Bash'];

/** docs/sources.md#ccs-context-preservation (post-compact restoration): files read or edited, todos, plans. */
export const CLAUDE_CODE_RESTORATION: RestorationHints = {
  fileTools: ['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'NotebookRead'],
  readTools: ['Read', 'NotebookRead'],
  wholeWriteTools: ['Write'],
  todoTool: 'TodoWrite',
  planTool: 'ExitPlanMode',
  planPath: /(^|[\\/])\.claude[\\/]plans[\\/]/,
  // Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism steps 7–8): skills, plan mode, SessionStart hook output. A skill's
  // body is the meta user message after the Skill result; hook output comes as attachments.
  skillTool: 'Skill',
  planModeTool: 'EnterPlanMode',
  hookAttachments: ['hook_success', 'hook_additional_context'],
};

/** Placeholder the API's context editing writes into cleared tool results (docs/sources.md#fmt-microcompact-boundary). */
const CLEARED_PLACEHOLDER = '[Old tool result content cleared]';

/**
 * Slash-command traces are `<command-…>` / `<local-command-…>` user texts; a manual `/compact`'s
 * trace carries its instructions in `<command-args>` (docs/sources.md#fmt-compaction).
 */
function readCommandTrace(text: string): { isTrace: boolean; compactInstructions?: string } {
  const isTrace = text.startsWith('<command-') || text.startsWith('<local-command-');
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text);
  if (args?.[1] && /<command-name>\/?compact<\/command-name>/.test(text) && args[1].trim())
    return { isTrace, compactInstructions: args[1].trim() };
  return { isTrace };
}

/**
 * Strips the wrappers Claude Code adds around user text: system reminders, the command caveat, and
 * what an IDE extension attaches (`<ide_opened_file>`, `<ide_selection>`: the file open or the lines
 * selected, not typed). An IDE wrapper cut off by a preview ends the text.
 */
function stripInjected(text: string): string {
  return text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/<local-command-caveat>[\s\S]*?<\/local-command-caveat>/g, '')
    .replace(/<ide_(?:opened_file|selection)>[\s\S]*?(?:<\/ide_(?:opened_file|selection)>|$)/g, '');
}

/** The continuation message a compacted session starts with (docs/sources.md#ccs). */
const PREVIOUS_SUMMARY = /^This session is being continued from a previous conversation/;
const INTERRUPT = /^\[Request interrupted by user/;

/** Slash commands, their output, shell escapes (`!`), the continuation summary, interruptions. */
function readUserText(text: string): { kind: UserTextKind; text: string } | null | undefined {
  if (PREVIOUS_SUMMARY.test(text)) return { kind: 'previous-summary', text };
  if (INTERRUPT.test(text)) return { kind: 'interrupt', text };
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text);
  if (name) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
    const command = at(name, 1).trim();
    return {
      kind: 'command',
      text: `${command.startsWith('/') ? command : `/${command}`}${args ? ` ${args}` : ''}`,
    };
  }
  if (/^<local-command-stdout>|^<local-command-stderr>|^<bash-stdout>|^<bash-stderr>/.test(text)) return null;
  const bash = /<bash-input>([\s\S]*?)<\/bash-input>/.exec(text);
  if (bash) return { kind: 'command', text: `! ${at(bash, 1).trim()}` };
  return undefined;
}

/** CLAUDE.md files Claude Code put in a system reminder ("Contents of …CLAUDE.md"): their bodies. */
function projectInstructions(text: string): string[] {
  const pattern = /Contents of [^\n]*CLAUDE\.md[^\n]*:\n([\s\S]*?)(?=\nContents of |<\/system-reminder>|$)/g;
  return [...text.matchAll(pattern)].map((match) => at(match, 1));
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `TodoWrite` sets the whole list; `TaskCreate` / `TaskUpdate` (2.1+) edit one task by id. */
function applyTodoTool(
  use: { name: string; input: unknown },
  todos: TodoItem[],
  tasks: Map<string, TodoItem>,
  resultText?: string,
): TodoItem[] | undefined {
  const input = isObject(use.input) ? use.input : {};
  if (use.name === 'TodoWrite' && Array.isArray(input.todos)) {
    return input.todos
      .filter(isObject)
      .map((t) => ({
        content: str(t.content) ?? str(t.activeForm) ?? '',
        status: str(t.status) ?? 'pending',
      }))
      .filter((t) => t.content !== '');
  }
  if (use.name === 'TaskCreate') {
    const subject = str(input.subject) ?? str(input.description);
    if (!subject) return todos;
    const id = resultText ? /#(\d+)/.exec(resultText)?.[1] : undefined;
    tasks.set(id ?? String(tasks.size + 1), { content: subject, status: 'pending' });
    return [...tasks.values()];
  }
  if (use.name === 'TaskUpdate') {
    const id = str(input.taskId) ?? (typeof input.taskId === 'number' ? String(input.taskId) : undefined);
    const task = id ? tasks.get(id) : undefined;
    const status = str(input.status);
    if (task && status) task.status = status;
    if (task && status === 'deleted') tasks.delete(id!);
    return [...tasks.values()];
  }
  return undefined;
}

/** The transcript hooks both forms of Claude Code's log share (a descriptor adds its system subtypes). */
export const CLAUDE_CODE_TEXTS: TranscriptConventions = {
  isInjectedUserText: (text) => text.startsWith('<local-command-') || text.startsWith('<system-reminder>'),
  readCommandTrace,
  stripInjected,
  readUserText,
  projectInstructions,
  applyTodoTool,
  clearedPlaceholder: CLEARED_PLACEHOLDER,
  understatedOutputCause:
    "the log wrote the usage of the stream's start, not its end (Claude Code's GitHub issue 10259)",
};
