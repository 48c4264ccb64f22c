import { normalizeAnthropicContent } from '../shared/anthropic-blocks';
import { hasClineUiLog } from './ui-messages';
import { type DialectDescriptor, NO_RESTORATION } from '../descriptor';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';

// Cline's task history, `…/saoudrizwan.claude-dev/tasks/<taskId>/api_conversation_history.json`
// (docs/sources.md#fmt-cline): one JSON document, an array of Anthropic-style messages `{role, content, ts,
// modelInfo, metrics}`. Each array element is one record. Token counts (`metrics.tokens`) are not
// read yet: the session has no API calls.

/** The largest history read whole (bytes); real task histories seen: ~1.5 MB. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** One message of the history → one entry. Never throws: shape problems become issues. */
function normalizeClineMessage(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
  const extras: RecordExtras = {};
  const entry = createEntry(ctx, index);
  if (!isObject(record)) {
    ctx.issue('wrong-shape', 'error', `Expected a message object per array element, got ${typeName(record)}`);
    return { entry, extras };
  }
  const role = record.role;
  entry.type = typeof role === 'string' ? role : '';
  if (typeof record.ts === 'number' && Number.isFinite(record.ts)) entry.timestampMs = record.ts;
  if (isObject(record.modelInfo) && typeof record.modelInfo.modelId === 'string')
    extras.model = record.modelInfo.modelId;
  if (role !== 'user' && role !== 'assistant') {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At role: expected "user" or "assistant", got ${JSON.stringify(role)}`,
      'role',
    );
    return { entry, extras };
  }
  entry.kind = role;
  entry.role = role;
  if (role === 'assistant' && extras.model !== undefined) entry.model = extras.model;
  const blocks = normalizeAnthropicContent(record.content, 'content', ctx);
  if (blocks) entry.blocks = blocks;
  else {
    ctx.issue(
      'wrong-shape',
      'error',
      `At content: expected a string or an array, got ${typeName(record.content)}`,
      'content',
    );
  }
  return { entry, extras };
}

/** Stateless per message; no record carries usage yet, so the session has no API calls. */
const clineNormalizer: RecordNormalizer = {
  dialect: 'cline',
  agent: 'Cline',
  apiCalls: 'usage-records',
  normalize: normalizeClineMessage,
};

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

export const CLINE_DIALECT: DialectDescriptor = {
  id: 'cline',
  label: 'Cline task history (api_conversation_history.json)',
  agent: 'Cline',
  createNormalizer: () => clineNormalizer,
  // What Cline keeps after condensing is not modelled yet (docs/sources.md#cline-doc).
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
    wholeJson: { maxBytes: MAX_DOCUMENT_BYTES },
  },
  transcript: {
    // Tool results come back as user text, "[read_file for 'x'] Result:" (docs/sources.md#fmt-cline): not a turn.
    isInjectedUserText: (text) => TOOL_RESULT_TEXT.test(text),
  },
};

const TOOL_RESULT_TEXT = /^\[[\w-]+(?: for [^\]\n]*)?\] Result:/;
