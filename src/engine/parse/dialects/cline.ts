import type { Block } from '../../types';
import { hasClineUiLog } from './cline-ui';
import { type DialectDescriptor, NO_RESTORATION } from './descriptor';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from './record';

// Cline's task history, `…/saoudrizwan.claude-dev/tasks/<taskId>/api_conversation_history.json`
// (FORMAT.md §12): one JSON document, an array of Anthropic-style messages `{role, content, ts,
// modelInfo, metrics}`. Each array element is one record. Token counts (`metrics.tokens`) are not
// read yet: the session has no API calls.

/** The largest history read whole (bytes); real task histories seen: ~1.5 MB. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

function textOfResult(content: unknown, max: number): { text: string; chars: number; images: number } {
  if (typeof content === 'string') return { text: preview(content, max), chars: content.length, images: 0 };
  if (!Array.isArray(content)) return { text: '', chars: 0, images: 0 };
  let text = '';
  let chars = 0;
  let images = 0;
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') {
      chars += part.text.length;
      if (text.length < max) text += (text ? '\n' : '') + preview(part.text, max - text.length);
    } else if (part.type === 'image') images++;
  }
  return { text, chars, images };
}

function normalizeBlock(raw: unknown, path: string, ctx: RecordContext): Block | undefined {
  const max = ctx.previewChars;
  if (!isObject(raw)) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At ${path}: expected a content block object, got ${typeName(raw)}`,
      path,
    );
    return undefined;
  }
  switch (raw.type) {
    case 'text': {
      if (typeof raw.text !== 'string') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At ${path}.text: expected a string, got ${typeName(raw.text)}`,
          `${path}.text`,
        );
        return { kind: 'text', text: '', chars: 0 };
      }
      return { kind: 'text', text: preview(raw.text, max), chars: raw.text.length };
    }
    case 'thinking': {
      const text = typeof raw.thinking === 'string' ? raw.thinking : '';
      return { kind: 'thinking', text: preview(text, max), chars: text.length, redacted: text === '' };
    }
    case 'redacted_thinking': {
      const data = typeof raw.data === 'string' ? raw.data : '';
      return { kind: 'thinking', text: '', chars: data.length, redacted: true };
    }
    case 'tool_use': {
      if (typeof raw.id !== 'string') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At ${path}.id: expected a string, got ${typeName(raw.id)}`,
          `${path}.id`,
        );
        return undefined;
      }
      const input = isObject(raw.input) ? raw.input : {};
      const inputJson = JSON.stringify(input) ?? '';
      const filePath = input.path ?? input.file_path;
      return {
        kind: 'tool-use',
        id: raw.id,
        name: typeof raw.name === 'string' ? raw.name : '(unnamed)',
        inputPreview: preview(inputJson, max),
        inputChars: inputJson.length,
        filePath: typeof filePath === 'string' ? filePath : undefined,
        command: typeof input.command === 'string' ? preview(input.command, max) : undefined,
      };
    }
    case 'tool_result': {
      if (typeof raw.tool_use_id !== 'string') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At ${path}.tool_use_id: expected a string, got ${typeName(raw.tool_use_id)}`,
          `${path}.tool_use_id`,
        );
        return undefined;
      }
      const { text, chars, images } = textOfResult(raw.content, max);
      return {
        kind: 'tool-result',
        toolUseId: raw.tool_use_id,
        text,
        chars,
        images,
        isError: raw.is_error === true,
        persisted: false,
      };
    }
    case 'image':
    case 'document': {
      const source = isObject(raw.source) ? raw.source : {};
      const data = typeof source.data === 'string' ? source.data.length : 0;
      const mediaType = typeof source.media_type === 'string' ? source.media_type : String(raw.type);
      return raw.type === 'image'
        ? { kind: 'image', mediaType, base64Chars: data }
        : { kind: 'document', mediaType, base64Chars: data };
    }
    default:
      return {
        kind: 'other',
        type: typeof raw.type === 'string' ? raw.type : '(untyped)',
        chars: (JSON.stringify(raw) ?? '').length,
      };
  }
}

/** One message of the history → one entry. Never throws: shape problems become issues. */
export function normalizeClineMessage(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
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
  const content = record.content;
  if (typeof content === 'string') {
    entry.blocks = [{ kind: 'text', text: preview(content, ctx.previewChars), chars: content.length }];
  } else if (Array.isArray(content)) {
    for (let i = 0; i < content.length; i++) {
      const block = normalizeBlock(content[i], `content[${i}]`, ctx);
      if (block) entry.blocks.push(block);
    }
  } else {
    ctx.issue(
      'wrong-shape',
      'error',
      `At content: expected a string or an array, got ${typeName(content)}`,
      'content',
    );
  }
  return { entry, extras };
}

/** Stateless per message; no record carries usage yet, so the session has no API calls. */
export const clineNormalizer: RecordNormalizer = {
  dialect: 'cline',
  agent: 'Cline',
  apiCalls: 'usage-records',
  normalize: normalizeClineMessage,
};

export const CLINE_DIALECT: DialectDescriptor = {
  id: 'cline',
  label: 'Cline task history (api_conversation_history.json)',
  agent: 'Cline',
  createNormalizer: () => clineNormalizer,
  // What Cline keeps after condensing is not modelled yet (cline-compact-implementation.md).
  restoration: NO_RESTORATION,
  files: {
    location: '…/globalStorage/saoudrizwan.claude-dev/tasks/<task-id>/api_conversation_history.json',
    matchName: (baseName) => /api_conversation_history\.json$/i.test(baseName),
    matchRecord: (value) =>
      Array.isArray(value) && isObject(value[0]) && 'role' in value[0] && 'content' in value[0],
    folderFile: (path) => /api_conversation_history\.json$/i.test(path),
    // With the task's UI log, which gives the calls and the truncations, this is its content.
    fileRole: (baseName, baseNames) =>
      /api_conversation_history\.json$/i.test(baseName) && hasClineUiLog(baseNames)
        ? { role: 'content' }
        : undefined,
    document: { maxBytes: MAX_DOCUMENT_BYTES },
  },
  transcript: {
    // Tool results come back as user text, "[read_file for 'x'] Result:" (FORMAT.md §12): not a turn.
    isInjectedUserText: (text) => TOOL_RESULT_TEXT.test(text),
  },
};

const TOOL_RESULT_TEXT = /^\[[\w-]+(?: for [^\]\n]*)?\] Result:/;
