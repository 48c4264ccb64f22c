import type { Block, Entry } from '../../../types';
import {
  createEntry,
  isObject,
  jsonText,
  type Json,
  type NormalizedRecord,
  readTokenCount,
  parseTimestamp,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';

// pi's session files (badlogic/pi-mono, `packages/coding-agent/docs/session.md`: "Session File
// Format", entry types and "Tree Structure"; `docs/compaction.md`; types in
// `packages/coding-agent/src/core/session-manager.ts` and `packages/ai/src/types.ts`), at
// `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl`. Checked on real public sessions of
// session version 3 (docs/formats.md, "Versions checked"); version 1 from pi's own migration code
// and a fixture made from a real version 3 log by that migration run backwards
// (tests/fixtures/make-pi-v1-fixture.ts), since no real version 1 log was found.
//
// Line 1 is the header `{type: "session", version, id, timestamp, cwd, parentSession?}`. Every
// other line is an entry `{type, id, parentId, timestamp, …}`; the entries form a tree by
// id/parentId (version 2+), branching in place. The tree is the same shape as Claude Code's uuid
// tree, so `id`/`parentId` become the entry's uuid/parentUuid and `branches.ts` finds the forks
// and the main line (the path to the last message) with no pi-specific code.
//
// Entry types: `message` (an AgentMessage: user, assistant with `usage {input, output, cacheRead,
// cacheWrite, totalTokens, cost}`, toolResult, bashExecution, custom (`hookMessage` before
// version 3), branchSummary, compactionSummary), `compaction {summary, firstKeptEntryId,
// tokensBefore, details?, fromHook?}`, `branch_summary {fromId, summary}`, `model_change
// {provider, modelId}`, `thinking_level_change {thinkingLevel}`, `custom {customType, data}`
// (extension state, never sent), `custom_message {customType, content, display}` (sent), `label
// {targetId, label}`, `session_info {name}`.
//
// Version 1 (no `version` in the header; pi v0.12.7 to v0.30.x) has no ids: the list is linear and
// a compaction names its kept range by position, `firstKeptEntryIndex`, which is read as that
// position in the file's records (createPiNormalizer).
//
// A compaction keeps the entries from `firstKeptEntryId` (or `firstKeptEntryIndex`) up to the
// compaction and sends the summary before them (docs/session.md "Context Building"):
// `tokensBefore` is the context it replaced, so it is the compaction's preTokens.
//
// An assistant message with `stopReason` 'error' or 'aborted' and all-zero usage is a request that
// brought back no answer (an HTTP error, an abort): a failed request with its `errorMessage`, not
// an API call (readMessage).

/** Entry types that only say something about the session (kept as metadata, counted). */
const META_TYPES = new Set(['model_change', 'thinking_level_change', 'custom', 'label', 'session_info']);

function textBlocks(content: unknown, path: string, ctx: RecordContext): Block[] {
  const max = ctx.previewChars;
  if (typeof content === 'string')
    return [{ kind: 'text', text: preview(content, max), chars: content.length }];
  if (!Array.isArray(content)) {
    ctx.issue(
      'wrong-shape',
      'error',
      `At ${path}: expected a string or an array, got ${typeName(content)}`,
      path,
    );
    return [];
  }
  const blocks: Block[] = [];
  content.forEach((part, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(part)) {
      ctx.issue(
        'wrong-shape',
        'warning',
        `At ${at}: expected a content block object, got ${typeName(part)}`,
        at,
      );
      return;
    }
    if (part.type === 'text' && typeof part.text === 'string')
      blocks.push({ kind: 'text', text: preview(part.text, max), chars: part.text.length });
    else if (part.type === 'thinking') {
      const t = typeof part.thinking === 'string' ? part.thinking : '';
      blocks.push({
        kind: 'thinking',
        text: preview(t, max),
        chars: t.length,
        ...(t === '' ? { hidden: 'not-kept' as const } : {}),
      });
    } else if (part.type === 'image') {
      blocks.push({
        kind: 'image',
        mediaType: typeof part.mimeType === 'string' ? part.mimeType : 'image',
        base64Chars: typeof part.data === 'string' ? part.data.length : 0,
      });
    } else if (part.type === 'toolCall') {
      if (typeof part.id !== 'string') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At ${at}.id: expected a string, got ${typeName(part.id)}`,
          `${at}.id`,
        );
        return;
      }
      const args = isObject(part.arguments) ? part.arguments : {};
      const json = jsonText(args, ctx, 'message.content.arguments');
      const filePath = args.path ?? args.file_path;
      blocks.push({
        kind: 'tool-use',
        id: part.id,
        name: typeof part.name === 'string' ? part.name : '(unnamed)',
        inputPreview: preview(json, max),
        inputChars: json.length,
        filePath: typeof filePath === 'string' ? filePath : undefined,
        command: typeof args.command === 'string' ? preview(args.command, max) : undefined,
      });
    } else {
      blocks.push({
        kind: 'other',
        type: typeof part.type === 'string' ? part.type : '(untyped)',
        chars: (JSON.stringify(part) ?? '').length,
      });
    }
  });
  return blocks;
}

function joinedText(blocks: Block[]): { text: string; chars: number } {
  let text = '';
  let chars = 0;
  for (const b of blocks) {
    if (b.kind !== 'text') continue;
    text += (text ? '\n' : '') + b.text;
    chars += b.chars;
  }
  return { text, chars };
}

/** A `message` entry's AgentMessage, into `entry`. */
/**
 * OpenClaw, a gateway that runs pi's agent and writes its sessions in pi's format
 * (`~/.openclaw/agents/<agent>/sessions/<id>.jsonl`), known by its workspace as the session's cwd
 * (`~/.openclaw/workspace`, `workspace-<agent>`: all 10 real OpenClaw sessions of the manifest)
 * or by its gateway's own messages (below). It runs pi under settings of its own (the pi strategy
 * reads `SessionInfo.host`).
 */
const OPENCLAW = 'OpenClaw';
const OPENCLAW_WORKSPACE = /[\\/]\.openclaw[\\/]workspace(?:-[^\\/]*)?[\\/]?$/;

function readMessage(message: Json, entry: Entry, extras: RecordExtras, ctx: RecordContext): void {
  const role = message.role;
  entry.subtype = typeof role === 'string' ? role : undefined;
  const max = ctx.previewChars;
  switch (role) {
    case 'user':
      entry.kind = 'user';
      entry.role = 'user';
      entry.blocks = textBlocks(message.content, 'message.content', ctx);
      return;
    case 'assistant': {
      entry.kind = 'assistant';
      entry.role = 'assistant';
      entry.blocks = textBlocks(message.content, 'message.content', ctx);
      if (typeof message.model === 'string') {
        entry.model = message.model;
        extras.model = message.model;
      }
      // The provider the model ran through: pi's registry gives a model's window per provider
      // (models.ts), so the session's providers pick it, and each response's picks its turn's.
      if (typeof message.provider === 'string' && message.provider !== '') {
        extras.provider = message.provider;
        entry.provider = message.provider;
      }
      const usage = message.usage;
      if (isObject(usage)) {
        entry.usage = {
          inputTokens: readTokenCount(usage.input, 'message.usage.input', ctx),
          cacheCreationInputTokens: readTokenCount(usage.cacheWrite, 'message.usage.cacheWrite', ctx),
          cacheReadInputTokens: readTokenCount(usage.cacheRead, 'message.usage.cacheRead', ctx),
          outputTokens: readTokenCount(usage.output, 'message.usage.output', ctx),
        };
        // pi's own cost of the answer, at its model catalog's prices (`Usage.cost.total`,
        // badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/ai/src/types.ts:167-180).
        const total = isObject(usage.cost) ? usage.cost.total : undefined;
        if (typeof total === 'number' && Number.isFinite(total)) extras.statedCostUsd = total;
      } else {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At message.usage: expected an object, got ${typeName(usage)}`,
          'message.usage',
        );
      }
      entry.isApiError = message.stopReason === 'error';
      // OpenClaw (a gateway running pi's agent, sessions in pi's format) writes its own replies to
      // a chat command as assistant messages of provider "openclaw", model "gateway-injected",
      // with all-zero usage (a real session of adrianstanca1/vps-config: "Usage: /kill <id|#|all>"
      // and a restart notice, each its own root): made locally, no API call and no model of the
      // session (`isSynthetic`, as Claude Code's "<synthetic>").
      // The same gateway mirrors into a session what it delivered to a chat channel for it, as an
      // assistant message of model "delivery-mirror" and all-zero usage, of provider "dna" in the
      // source (openclaw/openclaw@013c24e74a262690bbe83a479f03f50404a8ef13:src/config/sessions/transcript.ts:70-120,
      // appendAssistantMessageToSessionTranscript), "clawdbot" or "openclaw" in real sessions
      // (Musk-fanX/openclaw-backup, ReinforcementSleeping/openclaw-backup: 17, each read as a call
      // of context 0 before): no API call either.
      const z = entry.usage;
      const fromGateway =
        (message.provider === 'openclaw' && message.model === 'gateway-injected') ||
        message.model === 'delivery-mirror';
      if (fromGateway) extras.host = OPENCLAW;
      entry.isSynthetic =
        fromGateway &&
        (z === undefined ||
          z.inputTokens + z.cacheCreationInputTokens + z.cacheReadInputTokens + z.outputTokens === 0);
      // An answer that never came: pi records an HTTP error or an abort as an assistant message
      // with `stopReason` 'error' or 'aborted' and all-zero usage (StopReason and errorMessage,
      // badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/ai/src/types.ts:182-198); the
      // real termux-monorepo log ends on one ('402 You have depleted your monthly included
      // credits'). A failed request, not a call of context 0. An abort after usage came is a call.
      const u = entry.usage;
      if (
        (message.stopReason === 'error' || message.stopReason === 'aborted') &&
        (u === undefined ||
          u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens + u.outputTokens === 0)
      ) {
        entry.failedRequest = { reason: message.stopReason };
        if (typeof message.errorMessage === 'string')
          entry.failedRequest.detail = preview(message.errorMessage, max);
      }
      return;
    }
    case 'toolResult': {
      entry.kind = 'user';
      entry.role = 'user';
      if (typeof message.toolCallId !== 'string') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At message.toolCallId: expected a string, got ${typeName(message.toolCallId)}`,
          'message.toolCallId',
        );
        return;
      }
      const parts = textBlocks(message.content, 'message.content', ctx);
      const { text, chars } = joinedText(parts);
      entry.blocks = [
        {
          kind: 'tool-result',
          toolUseId: message.toolCallId,
          text,
          chars,
          images: parts.filter((b) => b.kind === 'image').length,
          isError: message.isError === true,
          persisted: false,
        },
      ];
      return;
    }
    case 'bashExecution': {
      // A `!command` the person ran: its output is sent unless `excludeFromContext` (`!!`).
      entry.kind = 'user';
      entry.role = 'user';
      entry.isMeta = true;
      const out = `$ ${String(message.command ?? '')}\n${String(message.output ?? '')}`;
      entry.blocks = [{ kind: 'text', text: preview(out, max), chars: out.length }];
      return;
    }
    // `hookMessage` is the role's name before session version 3 (migrateV2ToV3 renames it to
    // `custom`: badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/session-manager.ts:237-253).
    case 'hookMessage':
    case 'custom':
    case 'branchSummary':
    case 'compactionSummary': {
      entry.kind = 'user';
      entry.role = 'user';
      entry.isMeta = role !== 'compactionSummary';
      entry.isCompactSummary = role === 'compactionSummary';
      entry.blocks =
        role === 'custom' || role === 'hookMessage'
          ? textBlocks(message.content, 'message.content', ctx)
          : textBlocks(String(message.summary ?? ''), 'message.summary', ctx);
      return;
    }
    default:
      ctx.issue(
        'wrong-shape',
        'warning',
        `At message.role: expected a pi message role, got ${JSON.stringify(role)}`,
        'message.role',
      );
  }
}

/** The first entry a compaction keeps, found by id (version 2+) or by file position (version 1). */
interface KeptEntry {
  index: number;
  line: number;
  /** How the record named it, for the row's text. */
  named: string;
}

/** One file's normalizer: remembers the entries seen so far, so a compaction can name its kept range. */
export function createPiNormalizer(): RecordNormalizer {
  const entryById = new Map<string, { index: number; line: number }>();
  // Every record of the file in order, the header included: version 1's `firstKeptEntryIndex` is a
  // position in that list (pi's parseSessionEntries skips a line that is not JSON, as we do).
  const fileEntries: { index: number; line: number }[] = [];
  // Version 1 sessions (pi v0.12.7 to v0.30.x: no `version` in the header) are a linear list
  // without ids, whose compaction names its kept range by position (`firstKeptEntryIndex`); pi
  // migrates them on load, giving each entry an id and its predecessor as parent and turning the
  // position into that entry's id (migrateV1ToV2,
  // badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/session-manager.ts:208-235;
  // a missing version is 1: :259-268). We read the position as it is: a missing id is only a
  // problem from version 2 on.
  let isTree = true;
  const keptEntry = (record: Json): KeptEntry | undefined => {
    if (typeof record.firstKeptEntryId === 'string') {
      const kept = entryById.get(record.firstKeptEntryId);
      return kept && { ...kept, named: `entry ${record.firstKeptEntryId}` };
    }
    const at = record.firstKeptEntryIndex;
    // pi keeps the position only when it names an entry that is not the header (:224-227).
    if (typeof at === 'number' && Number.isInteger(at) && at > 0 && at < fileEntries.length) {
      const kept = fileEntries[at]!;
      return { ...kept, named: `entry #${at} of the file` };
    }
    return undefined;
  };
  return {
    dialect: 'pi',
    agent: 'pi',
    apiCalls: 'assistant-entries',
    normalize(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
      const extras: RecordExtras = {};
      const entry = createEntry(ctx, index);
      fileEntries.push({ index, line: ctx.line });
      if (!isObject(record)) {
        ctx.issue('wrong-shape', 'error', `Expected a record object, got ${typeName(record)}`);
        return { entry, extras };
      }
      const type = record.type;
      entry.type = typeof type === 'string' ? type : '';
      entry.timestampMs = parseTimestamp(record.timestamp, ctx);
      if (type === 'session') {
        entry.kind = 'meta';
        if (typeof record.id === 'string') extras.sessionId = record.id;
        if (typeof record.cwd === 'string') {
          extras.cwd = record.cwd;
          if (OPENCLAW_WORKSPACE.test(record.cwd)) extras.host = OPENCLAW;
        }
        if (record.version !== undefined) extras.version = `session v${String(record.version)}`;
        isTree = typeof record.version === 'number' && record.version >= 2;
        entry.summaryText = `session ${String(record.id ?? '?')}`;
        return { entry, extras };
      }
      if (typeof record.id === 'string') {
        entry.uuid = record.id;
        entry.messageId = record.id;
        entryById.set(record.id, { index, line: ctx.line });
      } else if (isTree)
        ctx.issue('wrong-shape', 'warning', `At id: expected a string, got ${typeName(record.id)}`, 'id');
      if (record.parentId === null || typeof record.parentId === 'string') entry.parentUuid = record.parentId;

      switch (type) {
        case 'message':
          if (!isObject(record.message)) {
            ctx.issue(
              'wrong-shape',
              'error',
              `At message: expected an object, got ${typeName(record.message)}`,
              'message',
            );
            return { entry, extras };
          }
          readMessage(record.message, entry, extras, ctx);
          return { entry, extras };
        case 'compaction': {
          entry.kind = 'system';
          entry.subtype = 'compaction';
          const summary = typeof record.summary === 'string' ? record.summary : '';
          entry.blocks = [{ kind: 'text', text: preview(summary, ctx.previewChars), chars: summary.length }];
          if (typeof record.tokensBefore !== 'number')
            ctx.issue(
              'wrong-shape',
              'warning',
              `At tokensBefore: expected a number, got ${typeName(record.tokensBefore)}`,
              'tokensBefore',
            );
          const kept = keptEntry(record);
          if (kept === undefined) {
            const field = 'firstKeptEntryIndex' in record ? 'firstKeptEntryIndex' : 'firstKeptEntryId';
            ctx.issue(
              'wrong-shape',
              'warning',
              `At ${field}: ${JSON.stringify(record[field])} names no earlier entry of this file`,
              field,
            );
          }
          entry.compact = {
            kind: 'compact',
            // pi does not record what started it; an extension's compaction says so (`fromHook`).
            trigger: record.fromHook === true ? 'extension' : 'unrecorded',
            preTokens: typeof record.tokensBefore === 'number' ? record.tokensBefore : undefined,
            summaryEntryIndex: index,
            ...(kept ? { keptFromEntryIndex: kept.index } : {}),
          };
          entry.summaryText = kept ? `kept from line ${kept.line} (${kept.named})` : 'kept range unknown';
          return { entry, extras };
        }
        case 'branch_summary':
        case 'custom_message': {
          // Both are sent to the model as a user message (docs/session.md "Context Building").
          entry.kind = 'user';
          entry.role = 'user';
          entry.isMeta = true;
          entry.blocks = textBlocks(
            type === 'branch_summary' ? String(record.summary ?? '') : record.content,
            type === 'branch_summary' ? 'summary' : 'content',
            ctx,
          );
          return { entry, extras };
        }
        default:
          if (typeof type === 'string' && META_TYPES.has(type)) {
            entry.kind = 'meta';
            if (type === 'model_change' && typeof record.modelId === 'string') extras.model = record.modelId;
            // The session's name: the latest `session_info` with one, an empty one skipped
            // (badlogic/pi-mono@83378aad packages/coding-agent/src/core/session-manager.ts:914-925).
            if (type === 'session_info' && typeof record.name === 'string' && record.name.trim())
              extras.title = { text: record.name, source: 'session_info', rank: 1 };
            entry.summaryText = describeMeta(record);
            return { entry, extras };
          }
          // Kept and counted as unknown (bad-input rules).
          return { entry, extras };
      }
    },
  };
}

function describeMeta(record: Json): string {
  switch (record.type) {
    case 'model_change':
      return `model ${String(record.provider ?? '?')}/${String(record.modelId ?? '?')}`;
    case 'thinking_level_change':
      return `thinking level ${String(record.thinkingLevel ?? '?')}`;
    case 'label':
      return `label ${JSON.stringify(record.label ?? null)} on ${String(record.targetId ?? '?')}`;
    case 'session_info':
      return `session name ${JSON.stringify(record.name ?? '')}`;
    default:
      return `${String(record.type)} ${String(record.customType ?? '')}`.trim();
  }
}
