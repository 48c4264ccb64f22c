import type { DialectDescriptor } from '../descriptor';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  type RecordContext,
  type RecordNormalizer,
  typeName,
} from '../record';
import { CLINE_TASK_METADATA_DIALECT_INFO } from './info';

// Cline's `task_metadata.json`, beside the task's UI log and API history: `{files_in_context:
// [{path, record_state: "active"|"stale", record_source: "read_tool"|"user_edited"|"cline_edited"|
// "file_mentioned", cline_read_date, cline_edit_date, user_edit_date}], model_usage: [{ts,
// model_id, model_provider_id, mode}]}` (cline/cline src/core/context/context-tracking/
// ContextTrackerTypes.ts; docs/sources.md#fmt-cline names the folder). Each file in context is one entry;
// `model_usage` is not read (the UI log names each message's model).

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

/** The task metadata, with its normalizer (the page reads its info, info.ts). */
export const CLINE_TASK_METADATA_DIALECT: DialectDescriptor = {
  ...CLINE_TASK_METADATA_DIALECT_INFO,
  createNormalizer: () => taskMetadataNormalizer,
};
