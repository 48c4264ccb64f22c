import type { CompactMeta, Entry, Usage } from '../../../types';
import {
  isObject,
  type Json,
  preview,
  type RecordContext,
  type RecordExtras,
  readTokenCount,
  typeName,
} from '../record';
import { type AnthropicBlockHooks, anthropicUsageOf, normalizeAnthropicContent } from './anthropic-blocks';

// Claude Code's conversation messages, as both of its log forms write them: its session JSONL
// (`~/.claude/projects/…`) and the stream it prints with `--output-format stream-json` or the
// Agent SDK emits. Both wrap the same API message in `{type: "user" | "assistant", message}`
// (docs/sources.md#fmt-envelope, #fmt-sdk-stream); only the envelope around it differs.

/**
 * API usage of one response (docs/sources.md#fmt-usage); a count out of range is an issue at `path`
 * and counts 0 (shared/anthropic-blocks.ts `anthropicUsageOf`).
 */
export function parseClaudeUsage(
  value: unknown,
  ctx?: RecordContext,
  path = 'message.usage',
): Usage | undefined {
  const usage = anthropicUsageOf(value, ctx, path);
  if (!usage || !isObject(value)) return usage;
  // The writes split by cache lifetime (docs/sources.md#cost-cache): kept only when some are 1-hour.
  const oneHour = isObject(value.cache_creation)
    ? readTokenCount(
        value.cache_creation.ephemeral_1h_input_tokens,
        `${path}.cache_creation.ephemeral_1h_input_tokens`,
        ctx,
      )
    : 0;
  if (oneHour > 0) usage.cacheCreation1hInputTokens = oneHour;
  return usage;
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

/**
 * A compact boundary's metadata: `compactMetadata` {trigger, preTokens, postTokens, durationMs} in
 * the session JSONL, `compact_metadata` {trigger, pre_tokens, …} in the stream (snake_case).
 */
export function readCompactMeta(value: unknown, naming: 'camelCase' | 'snake_case'): CompactMeta {
  const m = isObject(value) ? value : {};
  const field = (camel: string, snake: string) => {
    const v = m[naming === 'camelCase' ? camel : snake];
    return typeof v === 'number' ? v : undefined;
  };
  return {
    trigger: typeof m.trigger === 'string' ? m.trigger : 'unknown',
    preTokens: field('preTokens', 'pre_tokens'),
    postTokens: field('postTokens', 'post_tokens'),
    durationMs: field('durationMs', 'duration_ms'),
  };
}

/**
 * Fills a `user` or `assistant` record's entry from its API message (`r.message`): its blocks, and
 * for a response its id, model and usage; `toolResult` is the envelope's tool result
 * (`toolUseResult` in the session JSONL, `tool_use_result` in the stream), whose `agentId` names
 * the subagent a Task/Agent call spawned. Shape problems become issues.
 */
export function normalizeClaudeMessage(
  r: Json,
  role: 'user' | 'assistant',
  entry: Entry,
  extras: RecordExtras,
  ctx: RecordContext,
  toolResult: unknown,
): void {
  entry.kind = role;
  entry.role = role;
  const message = r.message;
  if (!isObject(message)) {
    ctx.issue('wrong-shape', 'error', `At message: expected an object, got ${typeName(message)}`, 'message');
    return;
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
  if (role === 'assistant') {
    if (typeof message.id === 'string') entry.messageId = message.id;
    if (typeof message.model === 'string') entry.model = message.model;
    entry.isSynthetic = message.model === '<synthetic>';
    entry.usage = parseClaudeUsage(message.usage, ctx);
  } else {
    if (typeof message.content === 'string') extras.promptText = preview(message.content, ctx.previewChars);
    if (isObject(toolResult) && typeof toolResult.agentId === 'string')
      extras.spawnedAgentId = toolResult.agentId;
  }
}
