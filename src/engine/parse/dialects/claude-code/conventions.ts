import type { FileRoleMatch } from '../descriptor';
import { isObject } from '../record';

// What Claude Code's records and files look like from outside (detection, file roles, session
// memory): the descriptor's hooks, docs/sources.md#fmt-envelope–§8. What its user texts are
// (commands, reminders, the continuation summary, todos) is in ../shared/claude-conventions.ts,
// shared with its stream-json.

/** Record types that are session metadata rather than conversation (docs/sources.md#fmt-entry-types). */
export const META_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'file-history-delta',
  'queue-operation',
  'last-prompt',
  'permission-mode',
  'mode',
  'bridge-session',
  'custom-title',
  'agent-name',
  'ai-title',
  'pr-link',
  'fork-context-ref',
]);

/** System subtypes seen in real files (docs/sources.md#fmt-entry-types); others are kept and counted as unknown. */
export const KNOWN_SYSTEM_SUBTYPES = new Set([
  'turn_duration',
  'stop_hook_summary',
  'compact_boundary',
  'microcompact_boundary',
  'api_error',
  'away_summary',
  'local_command',
  'bridge_status',
  'scheduled_task_fire',
  'informational',
  'api_metrics',
  'agents_killed',
  'thinking',
]);

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
