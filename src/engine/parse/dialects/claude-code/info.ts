import { type DialectInfo, matchAgentFolderFile, type NotSessionFile } from '../descriptor';
import { isObject } from '../record';
import {
  CLAUDE_CODE_RESTORATION,
  CLAUDE_CODE_SHELL_TOOLS,
  CLAUDE_CODE_TEXTS,
} from '../shared/claude-conventions';
import { fileRoleOf, isClaudeCodeRecord, isSessionMemory, KNOWN_SYSTEM_SUBTYPES } from './conventions';
import { CLAUDE_CODE_METADATA, getMetaAgentId } from './meta';

// Claude Code as a dialect, what the page knows of it (index.ts adds its normalizer, normalizer.ts):
// how its records and files are recognised (conventions.ts), its subagents' metadata files
// (meta.ts); its texts and restoration, shared with its stream-json, in ../shared/claude-conventions.ts.

/**
 * `~/.claude/history.jsonl`: every prompt typed, across projects, one `{display, pastedContents,
 * timestamp, project, sessionId?}` a line (the input's up-arrow history; no model calls). Opening
 * `~/.claude` listed it as a broken session.
 */
const CLAUDE_CODE_PROMPT_HISTORY: NotSessionFile = {
  what: "Claude Code's prompt history (~/.claude/history.jsonl: the prompts typed, across projects, without the model's answers); the sessions are under ~/.claude/projects/",
  // In the `.claude` folder, or the folder opened (a file of that name there is no session's).
  matchPath: matchAgentFolderFile('.claude', 'history.jsonl'),
  matchRecord: (value) =>
    isObject(value) &&
    typeof value.display === 'string' &&
    'pastedContents' in value &&
    !('type' in value) &&
    !('message' in value),
};

/** Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`, docs/sources.md#fmt-envelope–§8). */
export const CLAUDE_CODE_DIALECT_INFO: DialectInfo = {
  id: 'claude-code',
  label: 'Claude Code session (JSONL)',
  agent: 'Claude Code',
  defaultStrategyId: 'claude-code',
  parsed: true,
  shellTools: CLAUDE_CODE_SHELL_TOOLS,
  restoration: CLAUDE_CODE_RESTORATION,
  // API calls are assistant records; compactions are system boundaries (docs/sources.md#fmt-compaction, #fmt-usage); the
  // session's name is a title or summary record (parse/session-title.ts). Quoted whole: inside a
  // JSON string the quotes would be escaped, so only structure matches.
  listNeedles: [
    '"assistant"',
    '"compact_boundary"',
    '"microcompact_boundary"',
    '"custom-title"',
    '"ai-title"',
    '"summary"',
  ],
  // A response's content (its text, thinking and tool inputs: most of its bytes) comes between
  // `"content":[` and `],"stop_reason"`; the list needs its id, model and usage only.
  listCut: { from: '"content":[', to: '],"stop_reason"' },
  files: {
    location: '~/.claude/projects/<project>/<session>.jsonl',
    matchRecord: isClaudeCodeRecord,
    folderFile: (path) => /\.jsonl$/i.test(path) || getMetaAgentId(path) !== undefined,
    metadata: CLAUDE_CODE_METADATA,
    fileRole: fileRoleOf,
    // Subagent logs live in `<session-id>/subagents/` (2.1+) or next to the session (`agent-*.jsonl`).
    loadsAfterMain: (path) => /(^|\/)agent-[^/]*\.jsonl$/i.test(path) || /\/subagents\//.test(path),
    sessionMemory: isSessionMemory,
    notSessions: [CLAUDE_CODE_PROMPT_HISTORY],
  },
  transcript: { ...CLAUDE_CODE_TEXTS, knownSystemSubtypes: KNOWN_SYSTEM_SUBTYPES },
};
