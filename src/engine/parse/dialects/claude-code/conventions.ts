import { at } from '../../../assert';
import type { FileRoleMatch, TodoItem, UserTextKind } from '../descriptor';
import { isObject } from '../record';
import { META_TYPES } from './normalizer';

// What Claude Code's records and files look like from outside (detection, file roles, session
// memory) and what its user texts are (commands, reminders, the continuation summary, todos):
// the descriptor's hooks, docs/sources.md#fmt-envelope–§8.

/** Record types Claude Code writes: the conversation's and the session metadata (docs/sources.md#fmt-entry-types). */
const RECORD_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'progress', ...META_TYPES]);

/** Envelope fields only Claude Code's records carry (docs/sources.md#fmt-envelope). */
const ENVELOPE_KEYS = [
  'uuid',
  'parentUuid',
  'sessionId',
  'leafUuid',
  'messageId',
  'agentId',
  'parentSessionId',
];

export function isClaudeCodeRecord(value: unknown): boolean {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  return RECORD_TYPES.has(value.type) && ENVELOPE_KEYS.some((key) => key in value);
}

/**
 * The role of a file from its name: `agent-acompact-*` is the log of a compaction call (what it
 * cost, not context), `agent-aside_question-*` a side question, other `agent-*` files are
 * subagents. Corpus copies flatten paths with `__`, so match the tail.
 */
export function fileRoleOf(baseName: string): FileRoleMatch | undefined {
  const match = /(?:^|__)agent-(.+)\.jsonl$/i.exec(baseName);
  if (!match) return undefined;
  const agentId = match[1] ?? '';
  if (agentId.startsWith('acompact')) return { role: 'compaction-call', agentId };
  if (agentId.startsWith('aside_question')) return { role: 'side-question', agentId };
  return { role: 'subagent', agentId };
}

/**
 * Claude Code's session memory file, `~/.claude/projects/<project>/<session-id>/session-memory/summary.md`:
 * that path's tail, or, next to a transcript, any `.md` file whose path names `session-memory`.
 */
export function isSessionMemory(path: string, withTranscript: boolean): boolean {
  const p = path.replace(/\\/g, '/').toLowerCase();
  if (p.endsWith('session-memory/summary.md')) return true;
  return withTranscript && p.endsWith('.md') && p.includes('session-memory');
}

/**
 * Slash-command traces are `<command-…>` / `<local-command-…>` user texts; a manual `/compact`'s
 * trace carries its instructions in `<command-args>` (docs/sources.md#fmt-compaction).
 */
export function readCommandTrace(text: string): { isTrace: boolean; compactInstructions?: string } {
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
export function stripInjected(text: string): string {
  return text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/<local-command-caveat>[\s\S]*?<\/local-command-caveat>/g, '')
    .replace(/<ide_(?:opened_file|selection)>[\s\S]*?(?:<\/ide_(?:opened_file|selection)>|$)/g, '');
}

/** The continuation message a compacted session starts with (docs/sources.md#ccs). */
const PREVIOUS_SUMMARY = /^This session is being continued from a previous conversation/;
const INTERRUPT = /^\[Request interrupted by user/;

/** Slash commands, their output, shell escapes (`!`), the continuation summary, interruptions. */
export function readUserText(text: string): { kind: UserTextKind; text: string } | null | undefined {
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
export function projectInstructions(text: string): string[] {
  const pattern = /Contents of [^\n]*CLAUDE\.md[^\n]*:\n([\s\S]*?)(?=\nContents of |<\/system-reminder>|$)/g;
  return [...text.matchAll(pattern)].map((match) => at(match, 1));
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `TodoWrite` sets the whole list; `TaskCreate` / `TaskUpdate` (2.1+) edit one task by id. */
export function applyTodoTool(
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
