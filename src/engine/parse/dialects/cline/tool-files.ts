import type { FileToolSpec } from '../descriptor';
import { createShellReadTool } from '../shared/shell-reads';

// The files Cline's tool calls read and change (the span digest's files).

/**
 * Its API history's calls, by its tool names (cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:
 * src/shared/tools.ts:11-14: `execute_command`, `replace_in_file`, `read_file`, `write_to_file`).
 * `path` names the file in the XML tools' specs, `absolutePath` in the native tool calls' (the
 * same commit's src/core/prompts/system-prompt/tools/write_to_file.ts:35 and :59,
 * replace_in_file.ts:71 and :94, read_file.ts:16): a real task's 40 `write_to_file` and 3
 * `replace_in_file` calls (gmfstu/Online-Card-Architecture) name theirs `absolutePath`.
 */
export const CLINE_FILE_TOOLS: readonly FileToolSpec[] = [
  { name: 'read_file', action: 'read', pathKeys: ['path', 'absolutePath'] },
  { name: 'write_to_file', action: 'write', pathKeys: ['absolutePath', 'path'] },
  { name: 'replace_in_file', action: 'edit', pathKeys: ['absolutePath', 'path'] },
  createShellReadTool('execute_command'),
];

/**
 * Its UI log's calls, read back from the request's text (`[tool] {"tool":"readFile","path":…}`,
 * ui-message-records.ts), by the names the UI gives them (the same commit's
 * src/shared/ExtensionMessage.ts:199-202, ClineSayTool's `tool`).
 */
export const CLINE_UI_FILE_TOOLS: readonly FileToolSpec[] = [
  { name: 'readFile', action: 'read', pathKeys: ['path'] },
  { name: 'editedExistingFile', action: 'edit', pathKeys: ['path'] },
  { name: 'newFileCreated', action: 'write', pathKeys: ['path'] },
];
