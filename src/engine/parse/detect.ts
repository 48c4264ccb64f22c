import type { DialectId, FileRole } from '../types';
import { META_TYPES } from './dialects/claude-code';

// Two-pass detection (STYLE.md §3): the file name first, then the structure of the first records.

export const DIALECT_LABELS: Record<DialectId, string> = {
  'claude-code': 'Claude Code session (JSONL)',
  'claude-sdk-stream': 'Claude Agent SDK stream-json',
  'codex-cli': 'Codex CLI rollout',
  cline: 'Cline task history (api_conversation_history.json)',
  'cline-ui': 'Cline UI messages (ui_messages.json)',
  unknown: 'unknown',
};

/** What the file name alone suggests. */
export function detectDialectFromName(name: string): DialectId | undefined {
  const base = baseName(name);
  if (/^rollout-.*\.jsonl$/i.test(base)) return 'codex-cli';
  if (/api_conversation_history\.json$/i.test(base)) return 'cline';
  if (/ui_messages\.json$/i.test(base)) return 'cline-ui';
  return undefined;
}

/** Record types Claude Code writes: the conversation's and the session metadata (FORMAT.md §3). */
const CLAUDE_CODE_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'progress', ...META_TYPES]);

/** Envelope fields only Claude Code's records carry (FORMAT.md §2). */
const CLAUDE_CODE_KEYS = [
  'uuid',
  'parentUuid',
  'sessionId',
  'leafUuid',
  'messageId',
  'agentId',
  'parentSessionId',
];

const CODEX_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/** What one parsed record says about its dialect, or undefined when it proves nothing. */
export function detectDialectFromRecord(record: unknown): DialectId | undefined {
  if (Array.isArray(record)) {
    const first = record[0] as Record<string, unknown> | undefined;
    if (first && typeof first === 'object') {
      if ('role' in first && 'content' in first) return 'cline';
      if ('say' in first || 'ask' in first) return 'cline-ui';
    }
    return undefined;
  }
  if (record === null || typeof record !== 'object') return undefined;
  const r = record as Record<string, unknown>;
  const type = r.type;
  if (typeof type !== 'string') return undefined;
  if (CODEX_TYPES.has(type) && 'payload' in r) return 'codex-cli';
  // The SDK's stream-json shape: snake_case session_id and no camelCase sessionId (FORMAT.md §10).
  if ('session_id' in r && !('sessionId' in r)) {
    if (type === 'system' || type === 'assistant' || type === 'user' || type === 'result')
      return 'claude-sdk-stream';
  }
  if (CLAUDE_CODE_TYPES.has(type) && CLAUDE_CODE_KEYS.some((key) => key in r)) return 'claude-code';
  return undefined;
}

export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

/**
 * Claude Code's session memory file, `~/.claude/projects/<project>/<session-id>/session-memory/summary.md`:
 * that path's tail, or, next to a transcript, any `.md` file whose path names `session-memory`.
 */
export function isSessionMemoryName(path: string, withTranscript: boolean): boolean {
  const p = path.replace(/\\/g, '/').toLowerCase();
  if (p.endsWith('session-memory/summary.md')) return true;
  return withTranscript && p.endsWith('.md') && p.includes('session-memory');
}

/**
 * The role of a Claude Code file within a dropped set, from its name: `agent-acompact-*` is the
 * log of a compaction call (what it cost, not context), `agent-aside_question-*` a side question,
 * other `agent-*` files are subagents. Corpus copies flatten paths with `__`, so match the tail.
 */
export function detectFileRole(name: string): { role: FileRole; agentId?: string } {
  const base = baseName(name);
  const match = /(?:^|__)agent-(.+)\.jsonl$/i.exec(base);
  if (!match) return { role: 'main' };
  const agentId = match[1];
  if (agentId.startsWith('acompact')) return { role: 'compaction-call', agentId };
  if (agentId.startsWith('aside_question')) return { role: 'side-question', agentId };
  return { role: 'subagent', agentId };
}
