// Token and timing accounting shared by the main thread, subagents and compaction calls.
// Context sizes are simulated but coherent: a request carries the previous request's context,
// its output and whatever was added since, with text counted at CHARS_PER_TOKEN.

import { type Rng, randomSignature } from './prng';
import type { JsonObject, StreamedBlock, UsageTokens } from './transcript-writer';

export const MAIN_MODEL = 'claude-opus-4-6';
/** Explore subagents run on the small model. */
export const EXPLORE_MODEL = 'claude-haiku-4-5-20251001';

/** Real tokenizer density for indented code and prose (Claude Code's own estimate uses 4). */
const CHARS_PER_TOKEN = 3.3;
/** System prompt + tool schemas + CLAUDE.md + one MCP server; first requests in the corpus carry 15–55k. */
export const SYSTEM_PROMPT_TOKENS = 20_480;
/** The Explore agent's smaller system prompt and tool set. */
export const EXPLORE_SYSTEM_TOKENS = 9_870;
/** A pasted terminal screenshot (about 1,100 × 1,100 px at 750 px² per token). */
export const IMAGE_TOKENS = 1_180;
/** Claude Code writes 1-hour cache entries (`ephemeral_1h_input_tokens`). */
const CACHE_TTL_MS = 3_600_000;
/** Streaming speed of the main model, in milliseconds per output token (~60 tokens/s). */
export const MS_PER_OUTPUT_TOKEN = 16;

/** The prompt-cache and context state of one conversation (main thread or a subagent). */
export interface Account {
  /** Tokens the next request will carry. */
  ctx: number;
  /** Prefix of that context already in the prompt cache. */
  cachedPrefix: number;
  lastCallMs?: number;
  /** input + cache creation + cache read of the last request. */
  lastContext: number;
  lastOutput: number;
}

export function countTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** UTF-8 length of a string, without TextEncoder (called once per line). */
export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // A surrogate pair: two UTF-16 units, four UTF-8 bytes.
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/** The usage of a request carrying `acct.ctx` tokens at `nowMs`; updates the cache state. */
export function takeUsage(rng: Rng, acct: Account, nowMs: number, output: number): UsageTokens {
  if (acct.lastCallMs !== undefined && nowMs - acct.lastCallMs > CACHE_TTL_MS) acct.cachedPrefix = 0;
  const input = rng.int(1, 9);
  const cacheRead = Math.min(acct.cachedPrefix, acct.ctx - input);
  const usage = { input, cacheCreation: acct.ctx - input - cacheRead, cacheRead, output };
  acct.lastContext = acct.ctx;
  acct.lastOutput = output;
  acct.cachedPrefix = acct.ctx;
  acct.ctx += output;
  acct.lastCallMs = nowMs;
  return usage;
}

/** Blocks with their output tokens and streaming delays (first-token latency, then per token). */
export function streamBlocks(
  rng: Rng,
  blocks: JsonObject[],
  tokens: number[],
  latencyMs: number,
  msPerToken: number,
): StreamedBlock[] {
  return blocks.map((block, i) => ({
    block,
    outputTokens: tokens[i] as number,
    delayMs: (i === 0 ? latencyMs : rng.int(30, 400)) + (tokens[i] as number) * msPerToken,
  }));
}

export function createThinkingBlock(rng: Rng, text: string): JsonObject {
  return {
    type: 'thinking',
    thinking: text,
    signature: randomSignature(rng, 96 + Math.min(600, Math.round(text.length / 4))),
  };
}
