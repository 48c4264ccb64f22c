import type { EntryKind, StatedTotals } from '../../../types';
import {
  createEntry,
  isObject,
  type Json,
  type NormalizedRecord,
  num,
  parseTimestamp,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';
import { normalizeClaudeMessage, parseClaudeUsage, readCompactMeta } from '../shared/claude-messages';

// The stream Claude Code prints with `claude -p --output-format stream-json --verbose`, which is
// also what the Agent SDK yields (docs/sources.md#fmt-sdk-stream): one JSON record a line, the
// session's `user` and `assistant` messages as in its session JSONL (../shared/claude-messages.ts)
// in a snake_case envelope (`session_id`, `parent_tool_use_id`, no `parentUuid` tree), framed per
// run by `system/init` and `result`.

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A `result` record's totals for its run: `usage`, `total_cost_usd`, `num_turns`, durations. */
function statedTotalsOf(r: Json, ctx: RecordContext): StatedTotals {
  const totals: StatedTotals = {
    runs: 1,
    errors: r.is_error === true || (typeof r.subtype === 'string' && r.subtype !== 'success') ? 1 : 0,
    usage: parseClaudeUsage(r.usage, ctx, 'usage') ?? {
      inputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
      outputTokens: 0,
    },
    turns: num(r.num_turns),
    durationMs: num(r.duration_ms),
    durationApiMs: num(r.duration_api_ms),
  };
  const cost = r.total_cost_usd;
  if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) totals.costUsd = cost;
  else if (cost !== undefined && cost !== null)
    ctx.issue(
      'out-of-range',
      'warning',
      `At total_cost_usd: expected a cost in USD (a number from 0), got ${(typeof cost === 'number' ? String(cost) : String(JSON.stringify(cost))).slice(0, 40)}; left out of the stated totals`,
      'total_cost_usd',
    );
  return totals;
}

function resultSummary(r: Json, totals: StatedTotals): string {
  const parts = [str(r.subtype) ?? 'result', `${totals.turns} turns`];
  if (totals.costUsd !== undefined) parts.push(`$${totals.costUsd.toFixed(4)}`);
  const text = str(r.result);
  return text ? `${parts.join(', ')}: ${text}` : parts.join(', ');
}

/**
 * One file's normalizer. It keeps one fact across records: a compaction's summary is the first
 * main-thread user message after its `compact_boundary` that Claude Code wrote itself
 * (`isSynthetic`), as the session JSONL's `isCompactSummary` marks it.
 */
export function createSdkStreamNormalizer(): RecordNormalizer {
  let afterBoundary = false;
  return {
    dialect: 'claude-sdk-stream',
    agent: 'Claude Code',
    apiCalls: 'assistant-entries',
    normalize(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
      const extras: RecordExtras = {};
      const entry = createEntry(ctx, index);
      if (!isObject(record)) {
        ctx.issue('wrong-shape', 'error', `Expected a JSON object per line, got ${typeName(record)}`);
        return { entry, extras };
      }
      const r = record;
      const type = str(r.type) ?? '';
      entry.type = type;
      if (typeof r.type !== 'string')
        ctx.issue('wrong-shape', 'warning', `At type: expected a string, got ${typeName(r.type)}`, 'type');
      // A permission answer repeats the uuid of the request it answers (seen in the public log).
      if (typeof r.uuid === 'string' && r.subtype !== 'permission_response') entry.uuid = r.uuid;
      if (typeof r.session_id === 'string') extras.sessionId = r.session_id;
      // The stream writes no time of its own on most records; a `timestamp` where it does, else the
      // `_audit_timestamp` a recording wrapper added (the one public log: docs/formats.md).
      entry.timestampMs = parseTimestamp(r.timestamp ?? r._audit_timestamp, ctx);
      // A subagent's records name the Task/Agent call that spawned it; the main thread's, null.
      if (typeof r.parent_tool_use_id === 'string') {
        entry.isSidechain = true;
        entry.spawnedBy = r.parent_tool_use_id;
      }

      let kind: EntryKind;
      switch (type) {
        case 'user':
        case 'assistant': {
          kind = type;
          normalizeClaudeMessage(r, type, entry, extras, ctx, r.tool_use_result);
          if (type === 'assistant' && typeof r.error === 'string') entry.isApiError = true;
          if (type === 'user' && r.isSynthetic === true) {
            if (afterBoundary && !entry.isSidechain) entry.isCompactSummary = true;
            else entry.isMeta = true;
          }
          if (!entry.isSidechain) afterBoundary = false;
          break;
        }
        case 'system': {
          kind = 'system';
          const subtype = str(r.subtype);
          if (subtype !== undefined) entry.subtype = subtype;
          if (subtype === 'init') {
            if (typeof r.claude_code_version === 'string') extras.version = r.claude_code_version;
            if (typeof r.cwd === 'string') extras.cwd = r.cwd;
            if (typeof r.model === 'string') extras.model = r.model;
            entry.summaryText = [str(r.model), str(r.claude_code_version), str(r.permissionMode)]
              .filter(Boolean)
              .join(' · ');
          } else if (subtype === 'compact_boundary') {
            entry.compact = readCompactMeta(r.compact_metadata, 'snake_case');
            afterBoundary = !entry.isSidechain;
          } else if (subtype === 'status') {
            entry.summaryText = str(r.status) ?? 'done';
          } else if (subtype === 'permission_request' || subtype === 'permission_response') {
            entry.summaryText = [str(r.tool_name), str(r.decision)].filter(Boolean).join(': ');
          }
          break;
        }
        case 'result': {
          kind = 'meta';
          if (entry.isSidechain) break;
          extras.statedTotals = statedTotalsOf(r, ctx);
          entry.subtype = str(r.subtype);
          entry.summaryText = preview(resultSummary(r, extras.statedTotals), ctx.previewChars);
          break;
        }
        case 'tool_use_summary': {
          kind = 'meta';
          if (typeof r.summary === 'string') entry.summaryText = preview(r.summary, ctx.previewChars);
          break;
        }
        case 'stream_event':
        case 'tool_progress': {
          kind = 'progress';
          if (isObject(r.event) && typeof r.event.type === 'string') entry.detailType = r.event.type;
          break;
        }
        default:
          kind = 'unknown';
      }
      entry.kind = kind;
      return { entry, extras };
    },
  };
}
