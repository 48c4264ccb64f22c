import type { DialectDescriptor } from '../descriptor';
import {
  applyTodoTool,
  fileRoleOf,
  isClaudeCodeRecord,
  isSessionMemory,
  projectInstructions,
  readCommandTrace,
  readUserText,
  stripInjected,
} from './conventions';
import { CLAUDE_CODE_METADATA, getMetaAgentId } from './meta';
import { CLEARED_PLACEHOLDER, claudeCodeNormalizer, KNOWN_SYSTEM_SUBTYPES } from './normalizer';

// Claude Code as a dialect: its records (normalizer.ts), how its files and texts are recognised
// (conventions.ts), its subagents' metadata files (meta.ts).

/** Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`, docs/sources.md#fmt-envelope–§8). */
export const CLAUDE_CODE_DIALECT: DialectDescriptor = {
  id: 'claude-code',
  label: 'Claude Code session (JSONL)',
  agent: 'Claude Code',
  defaultStrategyId: 'claude-code',
  createNormalizer: () => claudeCodeNormalizer,
  shellTools: ['Bash'],
  // docs/sources.md#ccs-context-preservation (post-compact restoration): files read or edited, todos, plans.
  restoration: {
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
  },
  // API calls are assistant records; compactions are system boundaries (docs/sources.md#fmt-compaction, #fmt-usage). Quoted
  // whole: inside a JSON string the quotes would be escaped, so only structure matches.
  listNeedles: ['"assistant"', '"compact_boundary"', '"microcompact_boundary"'],
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
  },
  transcript: {
    isInjectedUserText: (text) => text.startsWith('<local-command-') || text.startsWith('<system-reminder>'),
    readCommandTrace,
    stripInjected,
    readUserText,
    projectInstructions,
    applyTodoTool,
    knownSystemSubtypes: KNOWN_SYSTEM_SUBTYPES,
    clearedPlaceholder: CLEARED_PLACEHOLDER,
  },
};
