// Codex CLI's response items as engine blocks: message content, reasoning, tool calls (their input
// and the file an `apply_patch` touches) and tool results (docs/sources.md#fmt-codex).

import type { Block } from '../../../types';
import { isObject, type Json, preview, type RecordContext, typeName } from '../record';
import { readCodexExitCode } from './exit-code';

/** `response_item` payload types that are tool calls; the value is the payload's input field. */
const TOOL_CALL_INPUT: Record<string, string> = {
  function_call: 'arguments',
  custom_tool_call: 'input',
  local_shell_call: 'action',
  web_search_call: 'action',
};

/** `apply_patch` names each file it touches on a header line. */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/m;

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value) ?? '';
}

export function contentBlocks(content: unknown, ctx: RecordContext): Block[] {
  if (typeof content === 'string') {
    return [{ kind: 'text', text: preview(content, ctx.previewChars), chars: content.length }];
  }
  if (!Array.isArray(content)) {
    ctx.issue(
      'wrong-shape',
      'error',
      `At payload.content: expected an array of content parts, got ${typeName(content)}`,
      'payload.content',
    );
    return [];
  }
  const blocks: Block[] = [];
  for (let i = 0; i < content.length; i++) {
    const part = content[i];
    if (!isObject(part)) {
      ctx.issue(
        'wrong-shape',
        'warning',
        `At payload.content[${i}]: expected a content part object, got ${typeName(part)}`,
        `payload.content[${i}]`,
      );
      continue;
    }
    if (part.type === 'input_text' || part.type === 'output_text') {
      const text = typeof part.text === 'string' ? part.text : '';
      blocks.push({ kind: 'text', text: preview(text, ctx.previewChars), chars: text.length });
    } else if (part.type === 'input_image') {
      const url = typeof part.image_url === 'string' ? part.image_url : '';
      const mediaType = /^data:([^;,]+)/.exec(url)?.[1] ?? 'image';
      blocks.push({ kind: 'image', mediaType, base64Chars: url.length });
    } else {
      const type = typeof part.type === 'string' ? part.type : '(untyped)';
      blocks.push({ kind: 'other', type, chars: (JSON.stringify(part) ?? '').length });
    }
  }
  return blocks;
}

export function reasoningBlock(p: Json, ctx: RecordContext): Block {
  let text = '';
  for (const list of [p.summary, p.content]) {
    if (!Array.isArray(list)) continue;
    for (const part of list) {
      if (isObject(part) && typeof part.text === 'string') text += (text ? '\n' : '') + part.text;
    }
    if (text) break;
  }
  // A summarized item still carries its `encrypted_content`, which Codex sends back and counts
  // (`get_non_last_reasoning_items_tokens`): its length is kept beside the summary's.
  const encrypted = typeof p.encrypted_content === 'string' ? p.encrypted_content.length : undefined;
  const sealed = encrypted === undefined ? {} : { encryptedChars: encrypted };
  if (text)
    return {
      kind: 'thinking',
      text: preview(text, ctx.previewChars),
      chars: text.length,
      ...sealed,
    };
  return { kind: 'thinking', text: '', chars: encrypted ?? 0, hidden: 'encrypted', ...sealed };
}

export function toolUseBlock(p: Json, type: string, ctx: RecordContext): Block {
  const max = ctx.previewChars;
  const inputKey = TOOL_CALL_INPUT[type];
  const raw = inputKey === undefined ? undefined : p[inputKey];
  const inputJson = textOf(raw);
  // `arguments` is a JSON *string* (docs/sources.md#fmt-codex); parse it for the file path and command.
  let input: unknown = raw;
  if (type === 'function_call' && typeof raw === 'string') {
    try {
      input = JSON.parse(raw);
    } catch {
      input = undefined;
    }
  }
  let filePath: string | undefined;
  let command: unknown;
  if (isObject(input)) {
    const path = input.file_path ?? input.path;
    if (typeof path === 'string') filePath = path;
    command = input.command ?? input.cmd;
  } else if (type === 'custom_tool_call' && typeof raw === 'string') {
    filePath = PATCH_FILE.exec(raw)?.[1]?.trim();
  }
  if (Array.isArray(command)) command = command.join(' ');
  const name =
    typeof p.name === 'string'
      ? p.name
      : type === 'function_call' || type === 'custom_tool_call'
        ? '(unnamed)'
        : type;
  const id =
    typeof p.call_id === 'string' ? p.call_id : typeof p.id === 'string' ? p.id : `${type}@L${ctx.line}`;
  if (typeof p.call_id !== 'string' && type !== 'web_search_call') {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At payload.call_id: expected a string, got ${typeName(p.call_id)}`,
      'payload.call_id',
    );
  }
  return {
    kind: 'tool-use',
    id,
    name,
    inputPreview: preview(inputJson, max),
    inputChars: inputJson.length,
    filePath,
    command: typeof command === 'string' ? preview(command, max) : undefined,
  };
}

export function toolResultBlock(p: Json, ctx: RecordContext): Block | undefined {
  if (typeof p.call_id !== 'string') {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At payload.call_id: expected a string, got ${typeName(p.call_id)}`,
      'payload.call_id',
    );
    return undefined;
  }
  // A string, or (some versions) `{content, success}`.
  const output = p.output;
  const content = isObject(output) && 'content' in output ? output.content : output;
  const text = textOf(content);
  return {
    kind: 'tool-result',
    toolUseId: p.call_id,
    text: preview(text, ctx.previewChars),
    chars: text.length,
    // A failed command says so only in its output (exit-code.ts): 79 failures of the corpora's
    // rollouts read as successes before.
    isError: (isObject(output) && output.success === false) || (readCodexExitCode(textOf(output)) ?? 0) !== 0,
    images: 0,
    persisted: false,
  };
}
