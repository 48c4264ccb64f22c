import type { Block, Usage } from '../../../types';
import { isObject, jsonText, preview, type RecordContext, readTokenCount, typeName } from '../record';

// Anthropic Messages content blocks, as every dialect that records them writes them (Claude Code's
// `message.content`, Cline's API history, a raw Messages request): one normalizer, with hooks for
// what a dialect reads beyond the block.

/** What a dialect adds to the plain block mapping. */
export interface AnthropicBlockHooks {
  /** Called for each tool_use with its id, name and input (Claude Code links Task prompts). */
  onToolUse?(id: string, name: string, input: Record<string, unknown>): void;
  /** Whether a tool result's text is a pointer to output saved elsewhere (Claude Code). */
  isPersisted?(text: string): boolean;
}

function textOfToolResultContent(
  content: unknown,
  max: number,
): { text: string; chars: number; images: number } {
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
    } else if (part.type === 'image' || part.type === 'document') {
      images++;
    }
  }
  return { text, chars, images };
}

/**
 * One Anthropic Messages content block → a `Block` (text, thinking, tool_use, tool_result, image,
 * document; others kept as `other`). Never throws: shape problems become issues at `path`.
 */
function normalizeAnthropicBlock(
  raw: unknown,
  path: string,
  ctx: RecordContext,
  hooks: AnthropicBlockHooks = {},
): Block | undefined {
  if (!isObject(raw)) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At ${path}: expected a content block object, got ${typeName(raw)}`,
      path,
    );
    return undefined;
  }
  const max = ctx.previewChars;
  switch (raw.type) {
    case 'text': {
      const text = typeof raw.text === 'string' ? raw.text : '';
      if (typeof raw.text !== 'string') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At ${path}.text: expected a string, got ${typeName(raw.text)}`,
          `${path}.text`,
        );
      }
      return { kind: 'text', text: preview(text, max), chars: text.length };
    }
    case 'thinking': {
      const text = typeof raw.thinking === 'string' ? raw.thinking : '';
      // Claude Code 2.1.x keeps the signature and not the text (`"thinking": ""`): 507 blocks of
      // the shared corpus, none a `redacted_thinking`.
      return {
        kind: 'thinking',
        text: preview(text, max),
        chars: text.length,
        ...(text === '' ? { hidden: 'not-kept' as const } : {}),
      };
    }
    case 'redacted_thinking': {
      const data = typeof raw.data === 'string' ? raw.data : '';
      return {
        kind: 'thinking',
        text: '',
        chars: data.length,
        hidden: 'redacted',
        encryptedChars: data.length,
      };
    }
    case 'tool_use':
    case 'server_tool_use': {
      if (typeof raw.id !== 'string') {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At ${path}.id: expected a string, got ${typeName(raw.id)}`,
          `${path}.id`,
        );
        return undefined;
      }
      const name = typeof raw.name === 'string' ? raw.name : '(unnamed)';
      const input = isObject(raw.input) ? raw.input : {};
      const inputJson = jsonText(input, ctx, `${path}.input`);
      const filePath = input.file_path ?? input.path ?? input.notebook_path;
      const block: Block = {
        kind: 'tool-use',
        id: raw.id,
        name,
        inputPreview: preview(inputJson, max),
        inputChars: inputJson.length,
        filePath: typeof filePath === 'string' ? filePath : undefined,
        command: typeof input.command === 'string' ? preview(input.command, max) : undefined,
      };
      hooks.onToolUse?.(raw.id, name, input);
      return block;
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
      const { text, chars, images } = textOfToolResultContent(raw.content, max);
      return {
        kind: 'tool-result',
        toolUseId: raw.tool_use_id,
        text,
        chars,
        images,
        isError: raw.is_error === true,
        persisted: hooks.isPersisted?.(text) ?? false,
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
    default: {
      const type = typeof raw.type === 'string' ? raw.type : '(untyped)';
      return { kind: 'other', type, chars: jsonText(raw, ctx, path).length };
    }
  }
}

/** A message's `content`: a string, or an array of blocks; undefined for anything else. */
export function normalizeAnthropicContent(
  content: unknown,
  path: string,
  ctx: RecordContext,
  hooks: AnthropicBlockHooks = {},
): Block[] | undefined {
  if (typeof content === 'string') {
    return [{ kind: 'text', text: preview(content, ctx.previewChars), chars: content.length }];
  }
  if (Array.isArray(content)) {
    const blocks: Block[] = [];
    for (let i = 0; i < content.length; i++) {
      const block = normalizeAnthropicBlock(content[i], `${path}[${i}]`, ctx, hooks);
      if (block) blocks.push(block);
    }
    return blocks;
  }
  return undefined;
}

/** An Anthropic `usage` object (`path`: where it sits, for the issues of its bad counts). */
export function anthropicUsageOf(value: unknown, ctx?: RecordContext, path = 'usage'): Usage | undefined {
  if (!isObject(value)) return undefined;
  return {
    inputTokens: readTokenCount(value.input_tokens, `${path}.input_tokens`, ctx),
    cacheCreationInputTokens: readTokenCount(
      value.cache_creation_input_tokens,
      `${path}.cache_creation_input_tokens`,
      ctx,
    ),
    cacheReadInputTokens: readTokenCount(
      value.cache_read_input_tokens,
      `${path}.cache_read_input_tokens`,
      ctx,
    ),
    outputTokens: readTokenCount(value.output_tokens, `${path}.output_tokens`, ctx),
  };
}
