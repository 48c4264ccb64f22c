import type { Session } from '../types';
import { getPrice } from './prices';

// How a session's prompt cache behaves, per provider (docs/sources.md#cost-cache):
//
// - Anthropic: the agent marks the end of its request as cacheable (`cache_control`), so each call
//   reads the prefix the previous call wrote and writes the rest; a write lives 5 minutes (the
//   default) or 1 hour (`ttl: "1h"`, which the log shows as `ephemeral_1h_input_tokens`), each read
//   refreshing it. Writes are billed, at 1.25× or 2× input; reads at 0.1×.
// - OpenAI and Google: caching is automatic on a prompt's prefix; cached input is billed at its
//   discount and nothing is billed for writing. OpenAI keeps a prefix 5 to 10 minutes idle, up to
//   an hour; Google states no lifetime for implicit caching.

/** What the cost model needs to know of a session's cache. */
export interface CacheModel {
  /**
   * `write`: Anthropic's explicit cache (writes billed); `automatic`: OpenAI's and Google's;
   * `none`: the log records no cache read or write at all (its agent or provider did not cache, or
   * did not say): every input token is paid in full.
   */
  kind: 'write' | 'automatic' | 'none';
  /** Idle time after which the cache is gone (ms). */
  ttlMs: number;
  /** Share of cache writes billed at the 1-hour rate (0 … 1), as the log's own writes are split. */
  oneHourShare: number;
  /**
   * Share of the cached prefix a call really reads (0 … 1): 1 is the cache as documented; the
   * replay's cost takes the log's own (replay-cost.ts, `getLoggedHitShare`) unless told.
   */
  hitShare: number;
  /** In a sentence, for tables and docs. */
  note: string;
}

const FIVE_MINUTES = 5 * 60_000;
const ONE_HOUR = 60 * 60_000;

/**
 * The cache model of a session: by the provider of its calls' models (the price table's row),
 * else by its format (Claude Code and raw Anthropic traffic are Anthropic's). For Anthropic the
 * lifetime is the one most of the log's own writes used.
 */
export function getCacheModel(session: Session): CacheModel {
  let writes = 0;
  let reads = 0;
  let oneHour = 0;
  const providers = new Map<string, number>();
  for (const call of session.apiCalls) {
    writes += call.usage.cacheCreationInputTokens;
    reads += call.usage.cacheReadInputTokens;
    oneHour += call.usage.cacheCreation1hInputTokens ?? 0;
    const provider = getPrice(call.model)?.provider;
    if (provider) providers.set(provider, (providers.get(provider) ?? 0) + 1);
  }
  const provider =
    [...providers].sort((a, b) => b[1] - a[1])[0]?.[0] ??
    (session.format === 'claude-code' || session.format === 'anthropic-messages' ? 'anthropic' : 'openai');
  if (writes === 0 && reads === 0 && session.apiCalls.length > 0)
    return {
      kind: 'none',
      ttlMs: FIVE_MINUTES,
      oneHourShare: 0,
      hitShare: 0,
      note: 'no cache: the log records no cache read or write, so every input token is paid in full',
    };
  // An Anthropic model whose log records reads but never a write (a gateway that does not report
  // them): its writes are not billed as far as the log shows, so it is priced as automatic caching.
  if (provider === 'anthropic' && writes === 0)
    return {
      kind: 'automatic',
      ttlMs: FIVE_MINUTES,
      oneHourShare: 0,
      hitShare: 1,
      note: 'the log records cache reads but no write: cached input at the read rate, the rest in full',
    };
  if (provider !== 'anthropic')
    return {
      kind: 'automatic',
      // ours (OpenAI's lower bound of 5 to 10 minutes idle; Google states none).
      ttlMs: FIVE_MINUTES,
      oneHourShare: 0,
      hitShare: 1,
      note: `${provider === 'google' ? 'Google' : 'OpenAI'} automatic prefix caching: cached input at its discount, no write cost, 5 min idle lifetime`,
    };
  const oneHourShare = writes > 0 ? oneHour / writes : 0;
  const long = oneHourShare > 0.5;
  return {
    kind: 'write',
    ttlMs: long ? ONE_HOUR : FIVE_MINUTES,
    oneHourShare,
    hitShare: 1,
    note: `Anthropic prompt caching: the previous call's input read, the rest written; ${long ? '1 h' : '5 min'} lifetime${oneHourShare > 0 ? ` (${Math.round(oneHourShare * 100)}% of the log's writes 1 h)` : ''}`,
  };
}
