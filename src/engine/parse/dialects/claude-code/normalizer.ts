import type { EntryKind, MicrocompactMeta } from '../../../types';
import {
  createEntry,
  isObject,
  type Json,
  type NormalizedRecord,
  parseTimestamp,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  type TitleNote,
  typeName,
} from '../record';
import { normalizeClaudeMessage, readCompactMeta } from '../shared/claude-messages';
import { META_TYPES } from './conventions';

// Claude Code's JSONL records → engine entries (docs/sources.md#fmt-envelope–7).
// One record per line; this file knows the record shapes, nothing about files or sessions.

function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are control characters.
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function microcompactMetaOf(value: unknown): MicrocompactMeta {
  const m = isObject(value) ? value : {};
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return {
    trigger: typeof m.trigger === 'string' ? m.trigger : 'unknown',
    preTokens: typeof m.preTokens === 'number' ? m.preTokens : undefined,
    tokensSaved: typeof m.tokensSaved === 'number' ? m.tokensSaved : undefined,
    compactedToolIds: strings(m.compactedToolIds),
    clearedAttachmentUuids: strings(m.clearedAttachmentUUIDs),
  };
}

function summaryOfMeta(r: Json): string | undefined {
  switch (r.type) {
    case 'summary':
      return typeof r.summary === 'string' ? r.summary : undefined;
    case 'queue-operation':
      return [r.operation, typeof r.content === 'string' ? r.content : ''].filter(Boolean).join(': ');
    case 'last-prompt':
      return typeof r.lastPrompt === 'string' ? r.lastPrompt : undefined;
    case 'custom-title':
      return typeof r.customTitle === 'string' ? r.customTitle : undefined;
    case 'ai-title':
      return typeof r.aiTitle === 'string' ? r.aiTitle : undefined;
    case 'agent-name':
      return typeof r.agentName === 'string' ? r.agentName : undefined;
    case 'permission-mode':
      return typeof r.permissionMode === 'string' ? r.permissionMode : undefined;
    default:
      return undefined;
  }
}

/**
 * The name a meta record gives the session, ranked as the session list picks it (ours, from the
 * records: a real session renamed with /rename writes `custom-title` beside its generated
 * `ai-title`; `summary` records name the conversation ending at `leafUuid`, often another one).
 */
function titleOfMeta(r: Json): TitleNote | undefined {
  switch (r.type) {
    case 'custom-title':
      return typeof r.customTitle === 'string'
        ? { text: r.customTitle, source: 'custom-title', rank: 3 }
        : undefined;
    case 'ai-title':
      return typeof r.aiTitle === 'string' ? { text: r.aiTitle, source: 'ai-title', rank: 2 } : undefined;
    case 'summary':
      return typeof r.summary === 'string'
        ? {
            text: r.summary,
            source: 'summary',
            rank: 1,
            ...(typeof r.leafUuid === 'string' ? { leafUuid: r.leafUuid } : {}),
          }
        : undefined;
    default:
      return undefined;
  }
}

function attachmentSummary(attachment: Json): { text: string; chars: number } {
  const type = typeof attachment.type === 'string' ? attachment.type : 'attachment';
  const path = attachment.filename ?? attachment.path ?? attachment.planFilePath;
  let chars = 0;
  const content = attachment.content;
  if (typeof content === 'string') chars = content.length;
  else if (content !== undefined) chars = (JSON.stringify(content) ?? '').length;
  return { text: typeof path === 'string' ? `${type}: ${path}` : type, chars };
}

/**
 * Normalizes one parsed Claude Code record. Never throws: shape problems become issues and the
 * record is kept in the best form possible (at worst as an `unknown` entry).
 */
function normalizeClaudeCodeRecord(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
  const extras: RecordExtras = {};
  const entry = createEntry(ctx, index);
  if (!isObject(record)) {
    ctx.issue('wrong-shape', 'error', `Expected a JSON object per line, got ${typeName(record)}`);
    return { entry, extras };
  }
  const r = record;
  const type = typeof r.type === 'string' ? r.type : '';
  entry.type = type;
  if (typeof r.type !== 'string') {
    ctx.issue('wrong-shape', 'warning', `At type: expected a string, got ${typeName(r.type)}`, 'type');
  }

  // Envelope (docs/sources.md#fmt-envelope).
  if (typeof r.uuid === 'string') entry.uuid = r.uuid;
  else if (r.uuid !== undefined)
    ctx.issue('wrong-shape', 'warning', `At uuid: expected a string, got ${typeName(r.uuid)}`, 'uuid');
  if (typeof r.parentUuid === 'string' || r.parentUuid === null) entry.parentUuid = r.parentUuid;
  else if (r.parentUuid !== undefined) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At parentUuid: expected a string or null, got ${typeName(r.parentUuid)}`,
      'parentUuid',
    );
  }
  if (typeof r.logicalParentUuid === 'string') entry.logicalParentUuid = r.logicalParentUuid;
  else if (r.logicalParentUuid !== undefined && r.logicalParentUuid !== null) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At logicalParentUuid: expected a string or null, got ${typeName(r.logicalParentUuid)}`,
      'logicalParentUuid',
    );
  }
  entry.timestampMs = parseTimestamp(r.timestamp, ctx);
  if (typeof r.agentId === 'string') entry.agentId = r.agentId;
  entry.isSidechain = r.isSidechain === true;
  entry.isMeta = r.isMeta === true;
  entry.isCompactSummary = r.isCompactSummary === true;
  entry.isVisibleInTranscriptOnly = r.isVisibleInTranscriptOnly === true;
  entry.isApiError = r.isApiErrorMessage === true;
  if (typeof r.version === 'string') extras.version = r.version;
  if (typeof r.cwd === 'string') extras.cwd = r.cwd;
  // Outside a git repository Claude Code writes `"gitBranch": ""` (seen in real logs:
  // gouchan/agent-swarm-config 2.0.19, the corpus' aistrad__work 2.0.74): no branch, not a
  // branch named "" (which read "branch  ·" and, first, hid a later record's real branch).
  if (typeof r.gitBranch === 'string' && r.gitBranch !== '') extras.gitBranch = r.gitBranch;
  const sessionId = r.sessionId ?? r.session_id;
  if (typeof sessionId === 'string') extras.sessionId = sessionId;

  let kind: EntryKind;
  switch (type) {
    case 'user':
    case 'assistant': {
      kind = type;
      normalizeClaudeMessage(r, type, entry, extras, ctx, r.toolUseResult);
      if (type === 'assistant' && typeof r.requestId === 'string') entry.requestId = r.requestId;
      break;
    }
    case 'system': {
      kind = 'system';
      if (typeof r.subtype === 'string') entry.subtype = r.subtype;
      if (typeof r.content === 'string') entry.summaryText = preview(stripAnsi(r.content), ctx.previewChars);
      if (r.subtype === 'compact_boundary') entry.compact = readCompactMeta(r.compactMetadata, 'camelCase');
      else if (r.subtype === 'microcompact_boundary')
        entry.microcompact = microcompactMetaOf(r.microcompactMetadata);
      break;
    }
    case 'attachment': {
      kind = 'attachment';
      if (isObject(r.attachment)) {
        const a = r.attachment;
        entry.detailType = typeof a.type === 'string' ? a.type : undefined;
        const { text, chars } = attachmentSummary(a);
        entry.summaryText = text;
        // Attachments are folded into the next request (Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism)), so they cost context.
        if (chars > 0)
          entry.blocks = [{ kind: 'other', type: `attachment:${entry.detailType ?? ''}`, chars }];
      } else {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At attachment: expected an object, got ${typeName(r.attachment)}`,
          'attachment',
        );
      }
      break;
    }
    case 'progress': {
      kind = 'progress';
      if (isObject(r.data) && typeof r.data.type === 'string') entry.detailType = r.data.type;
      break;
    }
    default: {
      if (META_TYPES.has(type)) {
        kind = 'meta';
        const text = summaryOfMeta(r);
        if (text !== undefined) entry.summaryText = preview(text, ctx.previewChars);
        const title = titleOfMeta(r);
        if (title) extras.title = title;
      } else {
        kind = 'unknown';
      }
    }
  }
  entry.kind = kind;
  return { entry, extras };
}

/** Claude Code is stateless per record; API calls are its (streamed) assistant entries. */
export const claudeCodeNormalizer: RecordNormalizer = {
  dialect: 'claude-code',
  agent: 'Claude Code',
  apiCalls: 'assistant-entries',
  normalize: normalizeClaudeCodeRecord,
};
