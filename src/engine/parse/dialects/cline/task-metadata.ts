import { hasClineUiLog } from './ui-messages';
import { type DialectDescriptor, NO_RESTORATION } from '../descriptor';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  type RecordContext,
  type RecordNormalizer,
  typeName,
} from '../record';

// Cline's `task_metadata.json`, beside the task's UI log and API history: `{files_in_context:
// [{path, record_state: "active"|"stale", record_source: "read_tool"|"user_edited"|"cline_edited"|
// "file_mentioned", cline_read_date, cline_edit_date, user_edit_date}], model_usage: [{ts,
// model_id, model_provider_id, mode}]}` (cline/cline src/core/context/context-tracking/
// ContextTrackerTypes.ts; docs/sources.md#fmt-cline names the folder). Each file in context is one entry;
// `model_usage` is not read (the UI log names each message's model).

/** A metadata file is small (one line per file the task touched); anything larger is not one. */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

const METADATA_NAME = /task_metadata\.json$/i;

function normalizeFileInContext(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
  const entry = createEntry(ctx, index);
  entry.type = 'files_in_context';
  if (!isObject(record) || typeof record.path !== 'string') {
    ctx.issue(
      'wrong-shape',
      'warning',
      `Expected a file entry {path, record_state, record_source, …}, got ${typeName(record)}`,
    );
    return { entry, extras: {} };
  }
  entry.kind = 'meta';
  const dates = [record.cline_read_date, record.cline_edit_date, record.user_edit_date].filter(
    (d): d is number => typeof d === 'number' && Number.isFinite(d),
  );
  if (dates.length > 0) entry.timestampMs = Math.max(...dates);
  const how = [record.record_source, record.record_state].filter((x) => typeof x === 'string').join(', ');
  entry.summaryText = `file in context: ${record.path}${how ? ` (${how})` : ''}`;
  return { entry, extras: {} };
}

const taskMetadataNormalizer: RecordNormalizer = {
  dialect: 'cline-task-metadata',
  agent: 'Cline',
  apiCalls: 'usage-records',
  normalize: normalizeFileInContext,
};

export const CLINE_TASK_METADATA_DIALECT: DialectDescriptor = {
  id: 'cline-task-metadata',
  label: 'Cline task metadata (task_metadata.json)',
  agent: 'Cline',
  createNormalizer: () => taskMetadataNormalizer,
  restoration: NO_RESTORATION,
  files: {
    location: '…/globalStorage/saoudrizwan.claude-dev/tasks/<task-id>/task_metadata.json',
    matchName: (baseName) => METADATA_NAME.test(baseName),
    matchRecord: (value) =>
      isObject(value) && Array.isArray(value.files_in_context) && 'model_usage' in value,
    folderFile: (path) => METADATA_NAME.test(path),
    fileRole: (baseName, baseNames) =>
      METADATA_NAME.test(baseName) && hasClineUiLog(baseNames) ? { role: 'content' } : undefined,
    wholeJson: { maxBytes: MAX_DOCUMENT_BYTES, recordsKey: 'files_in_context' },
  },
};
