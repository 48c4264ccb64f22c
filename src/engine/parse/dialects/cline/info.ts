import { type DialectInfo, NO_RESTORATION } from '../descriptor';
import { isObject } from '../record';

// Cline's three task files as the page knows them (docs/sources.md#fmt-cline): their names, shapes
// and how a task folder groups them. What reads them is in ui-messages.ts, api-history.ts and
// task-metadata.ts, which add the normalizers.

/** The largest UI log read whole (bytes); the real one seen: ~2.2 MB for a 53-request task. */
const MAX_UI_LOG_BYTES = 256 * 1024 * 1024;
/** The largest history read whole (bytes); real task histories seen: ~1.5 MB. */
const MAX_HISTORY_BYTES = 256 * 1024 * 1024;
/** A metadata file is small (one line per file the task touched); anything larger is not one. */
const MAX_METADATA_BYTES = 64 * 1024 * 1024;

const UI_NAME = /ui_messages\.json$/i;
const METADATA_NAME = /task_metadata\.json$/i;
/** A task folder's files: the two logs of docs/sources.md#fmt-cline and the `task_metadata.json` beside them. */
const TASK_FILE = /^(.*\/)?(api_conversation_history|ui_messages|task_metadata)\.json$/i;

/**
 * Cline's task folders: `tasks/<id>/` holds the API history, the UI log and the task's metadata;
 * together they are one session, keyed by the UI log when there is one (the main file then, the
 * history its content: `fileRole` below), else by the history.
 */
function groupTaskFiles(paths: readonly string[]): { key: string; paths: string[] }[] {
  const byFolder = new Map<string, string[]>();
  for (const p of paths) {
    const m = TASK_FILE.exec(p);
    if (!m) continue;
    const folder = m[1] ?? '';
    const list = byFolder.get(folder) ?? [];
    if (list.length === 0) byFolder.set(folder, list);
    list.push(p);
  }
  const rank = (p: string) =>
    /ui_messages\.json$/i.test(p) ? 0 : /api_conversation_history/i.test(p) ? 1 : 2;
  return [...byFolder.values()].map((list) => {
    const ordered = [...list].sort((a, b) => rank(a) - rank(b));
    return { key: ordered[0]!, paths: ordered };
  });
}

/** True when a dropped set holds a Cline UI log: the task folder's other files are its content. */
const hasClineUiLog = (baseNames: readonly string[]): boolean => baseNames.some((name) => UI_NAME.test(name));

/**
 * A tool's result as Cline writes it, user text "[read_file for 'x'] Result:…" (docs/sources.md#fmt-cline).
 * What follows "for" may itself hold "]" (a search pattern) and newlines (a follow-up question): the
 * header ends at the first "] Result:" (one lazy scan from the start: linear in the text).
 */
export const TOOL_RESULT_TEXT = /^\[[\w-]+(?: for [\s\S]*?)?\] Result:/;

/**
 * The person's words in a tool's result: the feedback on a completion ("The user has provided
 * feedback on the results. … <feedback>…</feedback>") or on an operation, the answer to a question
 * (`<answer>…</answer>`), as real task histories show them. Found with `indexOf`: linear.
 */
function readPersonInResult(text: string): string | undefined {
  if (!TOOL_RESULT_TEXT.test(text)) return undefined;
  for (const tag of ['feedback', 'answer']) {
    const open = text.indexOf(`<${tag}>`);
    const close = open < 0 ? -1 : text.indexOf(`</${tag}>`, open);
    const words = close < 0 ? '' : text.slice(open + tag.length + 2, close).trim();
    if (words) return words;
  }
  return undefined;
}

/**
 * The id a task folder's two logs give one tool call: the `k`-th tool call of the API history's
 * message `message` (0-based; the task is message 0, so the assistant's are odd). The UI log shows
 * the call but never its result (a read, a write: only commands log their output), which is in the
 * history's next message; keyed alike, the UI log's call and the history's result pair
 * (ui-messages.ts, api-history.ts).
 */
export function getHistoryCallId(message: number, k: number): string {
  return `history:${message}#${k}`;
}

/**
 * Cline's own words in a user message, not the person's: a tool result, or "[ERROR] You did not use
 * a tool…" (formatResponse.noToolsUsed, cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/core/prompts/responses.ts:34).
 */
const INJECTED_USER_TEXT = /^\[ERROR\] /;

/**
 * Removes the `<environment_details>` Cline appends to every request (open tabs, time, context
 * used, mode): the agent's, not the person's words. One forward scan (an unclosed tag ends it).
 */
function stripEnvironmentDetails(text: string): string {
  const open = '<environment_details>';
  const close = '</environment_details>';
  let out = '';
  let from = 0;
  for (let at = text.indexOf(open); at >= 0; at = text.indexOf(open, from)) {
    const end = text.indexOf(close, at + open.length);
    if (end < 0) break;
    out += text.slice(from, at);
    from = end + close.length;
  }
  return out + text.slice(from);
}

/**
 * A call of the UI log as its summary request carries it, the model's text `[<type>] <text>`
 * (ui-message-records.ts writes it): `[tool] {"tool": "readFile", "path": …}` (the UI's JSON, its
 * tool named as the header counts it), `[command] npm test` (a command line, its shell tool's call).
 */
const UI_CALL_TEXT = /^\[(tool|command|browser_action_launch|use_mcp_server)\] /;

function readUiToolCallText(text: string): { name: string; input: unknown } | undefined {
  const m = UI_CALL_TEXT.exec(text);
  if (!m) return undefined;
  const body = text.slice(m[0].length);
  if (m[1] === 'command') return { name: 'execute_command', input: { command: body } };
  if (m[1] !== 'tool') return { name: m[1]!, input: {} };
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) && typeof value.tool === 'string' ? { name: value.tool, input: value } : undefined;
  } catch {
    return undefined;
  }
}

const CLINE_SHELL_TOOLS = ['execute_command'];

/** The UI log (ui-messages.ts reads it): the task's main file. */
export const CLINE_UI_DIALECT_INFO: DialectInfo = {
  id: 'cline-ui',
  label: 'Cline UI messages (ui_messages.json)',
  agent: 'Cline',
  defaultStrategyId: 'cline',
  parsed: true,
  // Its shell tool (cline/cline@0a3eba347c2a2f3ce2e9672c5f04cbf33b977ef6:src/shared/tools.ts:11,
  // ClineDefaultTool.BASH), as both its logs name the call.
  shellTools: CLINE_SHELL_TOOLS,
  restoration: NO_RESTORATION,
  files: {
    location: '…/globalStorage/saoudrizwan.claude-dev/tasks/<task-id>/ui_messages.json',
    matchName: (baseName) => UI_NAME.test(baseName),
    matchRecord: (value) =>
      Array.isArray(value) && isObject(value[0]) && ('say' in value[0] || 'ask' in value[0]),
    folderFile: (path) => UI_NAME.test(path),
    wholeJson: { maxBytes: MAX_UI_LOG_BYTES },
  },
  // Its calls reach a summary request as text: the built-in summary counts them and their files.
  transcript: { readToolCallText: readUiToolCallText },
};

/** The task history (api-history.ts reads it). */
export const CLINE_DIALECT_INFO: DialectInfo = {
  id: 'cline',
  label: 'Cline task history (api_conversation_history.json)',
  agent: 'Cline',
  defaultStrategyId: 'cline',
  parsed: true,
  // Cline sends the history without the truncation's range (ContextManager.getTruncatedMessages).
  historyIndexed: true,
  // What Cline keeps after condensing is not modelled yet (docs/sources.md#cline-doc).
  shellTools: CLINE_SHELL_TOOLS,
  restoration: NO_RESTORATION,
  files: {
    location: '…/globalStorage/saoudrizwan.claude-dev/tasks/<task-id>/api_conversation_history.json',
    matchName: (baseName) => /api_conversation_history\.json$/i.test(baseName),
    matchRecord: (value) =>
      Array.isArray(value) && isObject(value[0]) && 'role' in value[0] && 'content' in value[0],
    folderFile: (path) => /api_conversation_history\.json$/i.test(path),
    groupFiles: groupTaskFiles,
    // With the task's UI log, which gives the calls and the truncations, this is its content.
    fileRole: (baseName, baseNames) =>
      /api_conversation_history\.json$/i.test(baseName) && hasClineUiLog(baseNames)
        ? { role: 'content' }
        : undefined,
    wholeJson: { maxBytes: MAX_HISTORY_BYTES },
  },
  transcript: {
    // Tool results come back as user text, "[read_file for 'x'] Result:" (docs/sources.md#fmt-cline): not a
    // turn, nor is Cline's "[ERROR]" retry prompt. A "[TASK RESUMPTION]" is: the person resumed the task.
    isInjectedUserText: (text) => TOOL_RESULT_TEXT.test(text) || INJECTED_USER_TEXT.test(text),
    readPersonInResult,
    stripInjected: stripEnvironmentDetails,
  },
};

/** The task metadata (task-metadata.ts reads it). */
export const CLINE_TASK_METADATA_DIALECT_INFO: DialectInfo = {
  id: 'cline-task-metadata',
  label: 'Cline task metadata (task_metadata.json)',
  agent: 'Cline',
  defaultStrategyId: 'cline',
  parsed: true,
  restoration: NO_RESTORATION,
  files: {
    location: '…/globalStorage/saoudrizwan.claude-dev/tasks/<task-id>/task_metadata.json',
    matchName: (baseName) => METADATA_NAME.test(baseName),
    matchRecord: (value) =>
      isObject(value) && Array.isArray(value.files_in_context) && 'model_usage' in value,
    folderFile: (path) => METADATA_NAME.test(path),
    fileRole: (baseName, baseNames) =>
      METADATA_NAME.test(baseName) && hasClineUiLog(baseNames) ? { role: 'content' } : undefined,
    wholeJson: { maxBytes: MAX_METADATA_BYTES, recordsKey: 'files_in_context' },
  },
};
