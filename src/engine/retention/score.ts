import {
  FACT_CATEGORIES,
  type FactCategory,
  type FactMatchKind,
  type RetentionFact,
  type RetentionScore,
} from './types';

// Which facts a summary kept. A fact counts as kept when it appears exactly, after
// normalization, or (for long texts) nearly verbatim.

/** Word n-gram length for near-verbatim matching. */
const SHINGLE_WORDS = 4;
/** Share of a long fact's 4-grams that must appear for a near match. */
const NEAR_SHARE = 0.6;
/** Facts with at least this many words may match "near"; shorter ones must match as a whole. */
const NEAR_MIN_WORDS = 6;

/** Lowercase, NFKC, backslashes as slashes, quotes/backticks/emphasis dropped, spaces collapsed. */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\\/g, '/')
    .replace(/[`"'“”‘’*_]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!?]+$/, '')
    .trim();
}

function words(normalized: string): string[] {
  return normalized.split(/[^\p{L}\p{N}/.#-]+/u).filter(Boolean);
}

function shingles(list: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + SHINGLE_WORDS <= list.length; i++) out.push(list.slice(i, i + SHINGLE_WORDS).join(' '));
  return out;
}

/** A summary prepared once for matching many facts. */
interface PreparedSummary {
  raw: string;
  normalized: string;
  shingles: Set<string>;
}

export function prepareSummary(summary: string): PreparedSummary {
  const normalized = normalizeForMatch(summary);
  return { raw: summary, normalized, shingles: new Set(shingles(words(normalized))) };
}

/** How one fact matches a summary. */
export function matchFact(fact: RetentionFact, summary: PreparedSummary): FactMatchKind {
  if (summary.raw.includes(fact.text)) return 'exact';
  const normalized = normalizeForMatch(fact.text);
  if (normalized && summary.normalized.includes(normalized)) return 'normalized';
  for (const variant of fact.variants ?? []) {
    const v = normalizeForMatch(variant);
    if (v && summary.normalized.includes(v)) return 'normalized';
  }
  const factWords = words(normalized);
  if (factWords.length >= NEAR_MIN_WORDS) {
    const grams = shingles(factWords);
    const hits = grams.filter((g) => summary.shingles.has(g)).length;
    if (grams.length > 0 && hits / grams.length >= NEAR_SHARE) return 'near';
  }
  return 'missed';
}

/** Scores a summary against a span's facts, per category and overall. */
export function scoreRetention(facts: RetentionFact[], summary: string): RetentionScore {
  const prepared = prepareSummary(summary);
  const byCategory = Object.fromEntries(
    FACT_CATEGORIES.map((c) => [c, { total: 0, kept: 0, ratio: 1 }]),
  ) as Record<FactCategory, { total: number; kept: number; ratio: number }>;
  const missed: RetentionScore['missed'] = [];
  const matches: FactMatchKind[] = [];
  let kept = 0;
  for (const fact of facts) {
    const match = matchFact(fact, prepared);
    matches.push(match);
    const score = byCategory[fact.category];
    score.total++;
    if (match === 'missed') missed.push({ category: fact.category, text: fact.text });
    else {
      score.kept++;
      kept++;
    }
  }
  for (const score of Object.values(byCategory))
    score.ratio = score.total === 0 ? 1 : score.kept / score.total;
  return {
    total: facts.length,
    kept,
    ratio: facts.length === 0 ? 1 : kept / facts.length,
    byCategory,
    missed,
    matches,
  };
}
