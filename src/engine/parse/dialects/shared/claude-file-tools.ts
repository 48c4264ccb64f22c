import type { FileToolSpec } from '../descriptor';

/**
 * Claude Code's file tools, by tool_use name, and the input key naming the file (the names its
 * restoration lists, docs/sources.md#ccs-context-preservation; `file_path`, `notebook_path` in
 * its logs): its session JSONL and its stream-json take them from here.
 */
export const CLAUDE_CODE_FILE_TOOLS: readonly FileToolSpec[] = [
  { name: 'Read', action: 'read', pathKeys: ['file_path'] },
  { name: 'NotebookRead', action: 'read', pathKeys: ['notebook_path'] },
  { name: 'Write', action: 'write', pathKeys: ['file_path'] },
  { name: 'Edit', action: 'edit', pathKeys: ['file_path'] },
  { name: 'MultiEdit', action: 'edit', pathKeys: ['file_path'] },
  { name: 'NotebookEdit', action: 'edit', pathKeys: ['notebook_path'] },
];
