import type { TokenCount } from '../types';

// List prices in USD per million tokens, as data: Anthropic (input, output, cache writes with the
// 5-minute and the 1-hour lifetime, cache reads), OpenAI and Google (input, cached input, output;
// their caching is automatic and bills no write). Each row names the page it was read from;
// PRICES_SEEN is when. A user's overrides replace a row or add one, by price key
// (`getPriceKey`). A model without a row gets no cost rather than a guess. When the rows were
// read: prices-seen.ts.

const ANTHROPIC = 'https://platform.claude.com/docs/en/about-claude/pricing';
const OPENAI = 'https://developers.openai.com/api/docs/pricing';
const GOOGLE = 'https://ai.google.dev/gemini-api/docs/pricing';

/**
 * One model's prices per million tokens. The cache rates are optional so that an override may
 * give input and output only: then a 5-minute write is 1.25× input, a 1-hour write 2× and a read
 * 0.1× (Anthropic's multipliers, on the pricing page above).
 */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWrite5mPerMTok?: number;
  cacheWrite1hPerMTok?: number;
  cacheReadPerMTok?: number;
  /** Above this many input tokens in one request the `long` rates apply (the whole request). */
  longContext?: { aboveInputTokens: number } & Omit<Price, 'longContext' | 'source' | 'provider'>;
  provider?: 'anthropic' | 'openai' | 'google';
  /** Where the row was read. */
  source?: string;
}

const CACHE_WRITE_5M_FACTOR = 1.25;
const CACHE_WRITE_1H_FACTOR = 2;
const CACHE_READ_FACTOR = 0.1;

/** An Anthropic row: input, output, 5-minute write, 1-hour write, read. */
const anthropic = (input: number, output: number, w5m: number, w1h: number, read: number): Price => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheWrite5mPerMTok: w5m,
  cacheWrite1hPerMTok: w1h,
  cacheReadPerMTok: read,
  provider: 'anthropic',
  source: ANTHROPIC,
});

/** An OpenAI row: input, cached input, output. */
const openai = (input: number, cached: number, output: number): Price => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: cached,
  provider: 'openai',
  source: OPENAI,
});

/** The price table, by price key (`getPriceKey`). */
// biome-ignore format: a table, one model a line.
export const PRICE_TABLE: Readonly<Record<string, Price>> = {
  'fable-5-1':  anthropic(10, 50, 12.5, 20, 0.25),
  'fable-5':    anthropic(10, 50, 12.5, 20, 1),
  'opus-5-5':   anthropic(4, 20, 5, 8, 0.2),
  'opus-5':     anthropic(5, 25, 6.25, 10, 0.5),
  'opus-4-8':   anthropic(5, 25, 6.25, 10, 0.5),
  'opus-4-7':   anthropic(5, 25, 6.25, 10, 0.5),
  'opus-4-6':   anthropic(5, 25, 6.25, 10, 0.5),
  'opus-4-5':   anthropic(5, 25, 6.25, 10, 0.5),
  'opus-4-1':   anthropic(15, 75, 18.75, 30, 1.5),
  'opus-4':     anthropic(15, 75, 18.75, 30, 1.5),
  'sonnet-5-5': anthropic(2, 10, 2.5, 4, 0.1),
  'sonnet-5':   anthropic(2, 10, 2.5, 4, 0.2),
  'sonnet-4-6': anthropic(3, 15, 3.75, 6, 0.3),
  // Sonnet 4 and 4.5 with the 1M-context beta: requests over 200K input tokens at the long rates.
  'sonnet-4-5': { ...anthropic(3, 15, 3.75, 6, 0.3), longContext: { aboveInputTokens: 200_000, inputPerMTok: 6, outputPerMTok: 22.5, cacheWrite5mPerMTok: 7.5, cacheWrite1hPerMTok: 12, cacheReadPerMTok: 0.6 } },
  'sonnet-4':   { ...anthropic(3, 15, 3.75, 6, 0.3), longContext: { aboveInputTokens: 200_000, inputPerMTok: 6, outputPerMTok: 22.5, cacheWrite5mPerMTok: 7.5, cacheWrite1hPerMTok: 12, cacheReadPerMTok: 0.6 } },
  'sonnet-3-7': anthropic(3, 15, 3.75, 6, 0.3),
  'haiku-4-5':  anthropic(1, 5, 1.25, 2, 0.1),
  'haiku-3-5':  anthropic(0.8, 4, 1, 1.6, 0.08),
  'gpt-5':         openai(1.25, 0.125, 10),
  'gpt-5-codex':   openai(1.25, 0.125, 10),
  'gpt-5-mini':    openai(0.25, 0.025, 2),
  'gpt-5.1':       openai(1.25, 0.125, 10),
  'gpt-5.1-codex': openai(1.25, 0.125, 10),
  'gpt-5.2':       openai(1.75, 0.175, 14),
  'gpt-5.2-codex': openai(1.75, 0.175, 14),
  'gpt-5.3-codex': openai(1.75, 0.175, 14),
  'gpt-5.4':       openai(2.5, 0.25, 15),
  'gpt-5.4-mini':  openai(0.75, 0.075, 4.5),
  // Prompts over 200K tokens at the long rates (the pricing page's second column).
  'gemini-2.5-pro':   { inputPerMTok: 1.25, outputPerMTok: 10, cacheReadPerMTok: 0.125, longContext: { aboveInputTokens: 200_000, inputPerMTok: 2.5, outputPerMTok: 15, cacheReadPerMTok: 0.25 }, provider: 'google', source: GOOGLE },
  'gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5, cacheReadPerMTok: 0.03, provider: 'google', source: GOOGLE },
};

/**
 * The price key of a model id: `claude-sonnet-4-5-20250929` → `sonnet-4-5`,
 * `claude-3-5-haiku-…` → `haiku-3-5`, `gpt-5.3-codex` → itself, `openai/gpt-5-2025-08-07` →
 * `gpt-5`, `gemini-2.5-pro-preview-06-05` → `gemini-2.5-pro`.
 */
export function getPriceKey(model: string): string | undefined {
  const id = model.toLowerCase();
  const modern = /claude-(opus|sonnet|haiku|fable|mythos)-(\d)(?:[-.](\d)(?!\d))?/.exec(id);
  if (modern) {
    const family = modern[1] === 'mythos' ? 'fable' : modern[1];
    return `${family}-${modern[2]}${modern[3] ? `-${modern[3]}` : ''}`;
  }
  const legacy = /claude-(\d)-(\d)-(opus|sonnet|haiku)/.exec(id);
  if (legacy) return `${legacy[3]}-${legacy[1]}-${legacy[2]}`;
  const gpt = /(?:^|\/)(gpt-\d(?:\.\d)?(?:-(?:codex|mini))?)(?:-\d{4}-\d\d-\d\d)?$/.exec(id);
  if (gpt) return gpt[1];
  const gemini = /(?:^|\/)(gemini-\d\.\d-(?:pro|flash))/.exec(id);
  if (gemini) return gemini[1];
  return undefined;
}

/** Price keys → price, to replace or extend the table (a user's own prices). */
export type PriceOverrides = Readonly<Record<string, Price>>;

/** The price of a model: the override for its key, else the table's row. */
export function getPrice(model: string, overrides?: PriceOverrides): Price | undefined {
  const key = getPriceKey(model);
  return key ? (overrides?.[key] ?? PRICE_TABLE[key]) : undefined;
}

/** A call's tokens as they are billed. */
export interface BilledTokens {
  /** Input neither read from nor written to a cache. */
  uncached: TokenCount;
  cacheWrite5m: TokenCount;
  cacheWrite1h: TokenCount;
  cacheRead: TokenCount;
  output: TokenCount;
}

/** USD of one call's billed tokens at `price` (its long-context rates when its input is over their bound). */
export function priceBilledTokens(price: Price, t: BilledTokens): number {
  const input = t.uncached + t.cacheWrite5m + t.cacheWrite1h + t.cacheRead;
  const p = price.longContext && input > price.longContext.aboveInputTokens ? price.longContext : price;
  const perM = p.inputPerMTok;
  return (
    (t.uncached * perM +
      t.cacheWrite5m * (p.cacheWrite5mPerMTok ?? perM * CACHE_WRITE_5M_FACTOR) +
      t.cacheWrite1h * (p.cacheWrite1hPerMTok ?? perM * CACHE_WRITE_1H_FACTOR) +
      t.cacheRead * (p.cacheReadPerMTok ?? perM * CACHE_READ_FACTOR) +
      t.output * p.outputPerMTok) /
    1_000_000
  );
}

/** A recorded usage as billed tokens: the 1-hour part of its cache writes apart when the log gives it. */
export function getBilledTokens(usage: {
  inputTokens: TokenCount;
  outputTokens: TokenCount;
  cacheReadInputTokens?: TokenCount;
  cacheCreationInputTokens?: TokenCount;
  cacheCreation1hInputTokens?: TokenCount;
}): BilledTokens {
  const writes = usage.cacheCreationInputTokens ?? 0;
  const w1h = Math.min(writes, usage.cacheCreation1hInputTokens ?? 0);
  return {
    uncached: usage.inputTokens,
    cacheWrite5m: writes - w1h,
    cacheWrite1h: w1h,
    cacheRead: usage.cacheReadInputTokens ?? 0,
    output: usage.outputTokens,
  };
}

/** Cost of one recorded call in USD, or undefined for a model without a known price. */
export function computeCostUsd(
  model: string,
  usage: Parameters<typeof getBilledTokens>[0],
  overrides?: PriceOverrides,
): number | undefined {
  const price = getPrice(model, overrides);
  return price ? priceBilledTokens(price, getBilledTokens(usage)) : undefined;
}
