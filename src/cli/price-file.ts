import fs from 'node:fs';
import type { Price, PriceOverrides } from '../engine/cost/prices';

// `--prices <file.json>`: a user's own prices over the list prices (engine/cost/prices.ts), by
// price key: {"opus-4-6": {"inputPerMTok": 5, "outputPerMTok": 25, "cacheReadPerMTok": 0.5}}.
// Cache rates left out follow Anthropic's multipliers of the input price.

const RATES = [
  'inputPerMTok',
  'outputPerMTok',
  'cacheWrite5mPerMTok',
  'cacheWrite1hPerMTok',
  'cacheReadPerMTok',
] as const;

/** The overrides a file holds, or the reason it cannot be used (naming the key and the field). */
export function readPriceFile(path: string): PriceOverrides | string {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(path, 'utf8'));
  } catch (error) {
    return `--prices ${path}: ${(error as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `--prices ${path}: expected an object of price key → prices`;
  const out: Record<string, Price> = {};
  for (const [key, row] of Object.entries(value)) {
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      return `--prices ${path}: "${key}" is not an object of prices per million tokens`;
    const price: Record<string, number> = {};
    for (const rate of RATES) {
      const v = (row as Record<string, unknown>)[rate];
      if (v === undefined && rate !== 'inputPerMTok' && rate !== 'outputPerMTok') continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        return `--prices ${path}: "${key}".${rate} must be a number ≥ 0, got ${JSON.stringify(v)}`;
      price[rate] = v;
    }
    out[key] = price as unknown as Price;
  }
  return out;
}
