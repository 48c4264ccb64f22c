import type { SummaryUsage } from './types';

// Anthropic list prices in USD per million tokens (input / output), as published on the
// platform.claude.com model pages (seen 2026-11). Cache writes (5 min) cost 1.25× input and cache
// reads 0.1× input on every model listed. Models not listed get no cost rather than a guess.

/** When the table below was read off the model pages (the list shows it next to every cost). */
export const PRICES_SEEN = '2026-11';

export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

const CACHE_WRITE_FACTOR = 1.25;
const CACHE_READ_FACTOR = 0.1;

/** `family-major[-minor]` → price. */
const PRICES: Record<string, Price> = {
  'opus-4': { inputPerMTok: 15, outputPerMTok: 75 },
  'opus-4-1': { inputPerMTok: 15, outputPerMTok: 75 },
  'opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'opus-4-6': { inputPerMTok: 5, outputPerMTok: 25 },
  'opus-4-7': { inputPerMTok: 5, outputPerMTok: 25 },
  'opus-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'opus-5-5': { inputPerMTok: 4, outputPerMTok: 20 },
  'sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 },
  'sonnet-5': { inputPerMTok: 2, outputPerMTok: 10 },
  'sonnet-5-5': { inputPerMTok: 2, outputPerMTok: 10 },
  'haiku-3-5': { inputPerMTok: 0.8, outputPerMTok: 4 },
  'haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'fable-5-1': { inputPerMTok: 10, outputPerMTok: 50 },
};

/** The price key of a model id: `claude-sonnet-4-5-20250929` → `sonnet-4-5`, `claude-3-5-haiku-…` → `haiku-3-5`. */
export function getPriceKey(model: string): string | undefined {
  const id = model.toLowerCase();
  const modern = /claude-(opus|sonnet|haiku|fable|mythos)-(\d)(?:[-.](\d)(?!\d))?/.exec(id);
  if (modern) return `${modern[1]}-${modern[2]}${modern[3] ? `-${modern[3]}` : ''}`;
  const legacy = /claude-(\d)-(\d)-(opus|sonnet|haiku)/.exec(id);
  if (legacy) return `${legacy[3]}-${legacy[1]}-${legacy[2]}`;
  return undefined;
}

/** Price keys → price, to replace or extend the table (a user's own prices). */
export type PriceOverrides = Readonly<Record<string, Price>>;

/** Cost of one call in USD, or undefined for a model without a known price. */
export function computeCostUsd(
  model: string,
  usage: SummaryUsage,
  overrides?: PriceOverrides,
): number | undefined {
  const key = getPriceKey(model);
  const price = key ? (overrides?.[key] ?? PRICES[key]) : undefined;
  if (!price) return undefined;
  const perToken = price.inputPerMTok / 1_000_000;
  return (
    usage.inputTokens * perToken +
    (usage.cacheCreationInputTokens ?? 0) * perToken * CACHE_WRITE_FACTOR +
    (usage.cacheReadInputTokens ?? 0) * perToken * CACHE_READ_FACTOR +
    (usage.outputTokens * price.outputPerMTok) / 1_000_000
  );
}
