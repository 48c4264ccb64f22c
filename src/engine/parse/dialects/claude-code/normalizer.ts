import type { CompactMeta, EntryKind, MicrocompactMeta, Usage } from '../../../types';
import {
  type AnthropicBlockHooks,
  anthropicUsageOf,
  normalizeAnthropicContent,
} from '../shared/anthropic-blocks';
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
  typeName,
} from '../record';

// Claude Code's JSONL records → engine entries (docs/sources.md#fmt-envelope–7).
// One record per line; this file knows the record shapes, nothing about files or sessions.

/** Record types that are session metadata rather than conversation (docs/sources.md#fmt-entry-types). */
export const META_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'file-history-delta',
  'queue-operation',
  'last-prompt',
  'permission-mode',
  'mode',
  'bridge-session',
  'custom-title',
  'agent-name',
  'ai-title',
  'pr-link',
  'fork-context-ref',
]);

/** System subtypes seen in real files (docs/sources.md#fmt-entry-types); others are kept and counted as unknown. */
export const KNOWN_SYSTEM_SUBTYPES = new Set([
  'turn_duration',
  'stop_hook_summary',
  'compact_boundary',
  'microcompact_boundary',
  'api_error',
  'away_summary',
  'local_command',
  'bridge_status',
  'scheduled_task_fire',
  'informational',
  'api_metrics',
  'agents_killed',
  'thinking',
]);

/** Placeholder the API's context editing writes into cleared tool results (docs/sources.md#fmt-microcompact-boundary). */
export const CLEARED_PLACEHOLDER = '[Old tool result content cleared]';

function parseUsage(value: unknown, ctx: RecordContext): Usage | undefined {
  return anthropicUsageOf(value, ctx, 'message.usage');
}

/** Claude Code's additions to the Anthropic block mapping: Task/Agent prompts, persisted outputs. */
function claudeCodeBlockHooks(ctx: RecordContext, extras: RecordExtras): AnthropicBlockHooks {
  return {
    onToolUse(id, name, input) {
      if ((name === 'Task' || name === 'Agent') && typeof input.prompt === 'string') {
        extras.taskPrompts ??= [];
        extras.taskPrompts.push({ toolUseId: id, prompt: preview(input.prompt, ctx.previewChars) });
      }
    },
    isPersisted: (text) => text.startsWith('<persisted-output>'),
  };
}

function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are control characters.
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function compactMetaOf(value: unknown): CompactMeta {
  const m = isObject(value) ? value : {};
  return {
    trigger: typeof m.trigger === 'string' ? m.trigger : 'unknown',
    preTokens: typeof m.preTokens === 'number' ? m.preTokens : undefined,
    postTokens: typeof m.postTokens === 'number' ? m.postTokens : undefined,
    durationMs: typeof m.durationMs === 'number' ? m.durationMs : undefined,
  };
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
export function normalizeClaudeCodeRecord(
  record: unknown,
  ctx: RecordContext,
  index: number,
): NormalizedRecord {
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
  entry.timestampMs = parseTimestamp(r.timestamp, ctx);
  if (typeof r.agentId === 'string') entry.agentId = r.agentId;
  entry.isSidechain = r.isSidechain === true;
  entry.isMeta = r.isMeta === true;
  entry.isCompactSummary = r.isCompactSummary === true;
  entry.isVisibleInTranscriptOnly = r.isVisibleInTranscriptOnly === true;
  entry.isApiError = r.isApiErrorMessage === true;
  if (typeof r.version === 'string') extras.version = r.version;
  if (typeof r.cwd === 'string') extras.cwd = r.cwd;
  if (typeof r.gitBranch === 'string') extras.gitBranch = r.gitBranch;
  const sessionId = r.sessionId ?? r.session_id;
  if (typeof sessionId === 'string') extras.sessionId = sessionId;

  let kind: EntryKind;
  switch (type) {
    case 'user':
    case 'assistant': {
      kind = type;
      entry.role = type;
      const message = r.message;
      if (!isObject(message)) {
        ctx.issue(
          'wrong-shape',
          'error',
          `At message: expected an object, got ${typeName(message)}`,
          'message',
        );
        break;
      }
      const blocks = normalizeAnthropicContent(
        message.content,
        'message.content',
        ctx,
        claudeCodeBlockHooks(ctx, extras),
      );
      if (blocks) entry.blocks = blocks;
      else if (message.content !== undefined) {
        ctx.issue(
          'wrong-shape',
          'error',
          `At message.content: expected a string or an array of blocks, got ${typeName(message.content)}`,
          'message.content',
        );
      }
      if (type === 'assistant') {
        if (typeof message.id === 'string') entry.messageId = message.id;
        if (typeof r.requestId === 'string') entry.requestId = r.requestId;
        if (typeof message.model === 'string') entry.model = message.model;
        entry.isSynthetic = message.model === '<synthetic>';
        entry.usage = parseUsage(message.usage, ctx);
      } else {
        if (typeof message.content === 'string')
          extras.promptText = preview(message.content, ctx.previewChars);
        const result = r.toolUseResult;
        if (isObject(result) && typeof result.agentId === 'string') extras.spawnedAgentId = result.agentId;
      }
      break;
    }
    case 'system': {
      kind = 'system';
      if (typeof r.subtype === 'string') entry.subtype = r.subtype;
      if (typeof r.content === 'string') entry.summaryText = preview(stripAnsi(r.content), ctx.previewChars);
      if (r.subtype === 'compact_boundary') entry.compact = compactMetaOf(r.compactMetadata);
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
