// Facts a continuation needs, and how many of them a summary kept.

export type FactCategory = 'path' | 'command' | 'identifier' | 'error' | 'instruction' | 'last-request';

export const FACT_CATEGORIES: readonly FactCategory[] = [
  'path',
  'command',
  'identifier',
  'error',
  'instruction',
  'last-request',
];

export const FACT_CATEGORY_LABELS: Record<FactCategory, string> = {
  path: 'File paths',
  command: 'Commands',
  identifier: 'Numbers & identifiers',
  error: 'Error messages',
  instruction: 'User instructions & rules',
  'last-request': 'Last request',
};

export interface RetentionFact {
  category: FactCategory;
  /** The fact as it appears in the span. */
  text: string;
  /** Other spellings that count as a normalized match (a path's last two segments, a command's core). */
  variants?: string[];
}

/**
 * exact: the text appears as is; normalized: it appears after case, quotes, slashes and spaces
 * are normalized (or a variant does); near: a long text of which most word 4-grams appear
 * (a near-verbatim quote); missed: none of these.
 */
export type FactMatchKind = 'exact' | 'normalized' | 'near' | 'missed';

export interface CategoryScore {
  total: number;
  kept: number;
  /** kept / total; 1 when there is nothing to keep. */
  ratio: number;
}

export interface RetentionScore {
  total: number;
  kept: number;
  /** kept / total over all facts; 1 when the span has no facts. */
  ratio: number;
  byCategory: Record<FactCategory, CategoryScore>;
  /** Facts the summary lost, in span order within each category. */
  missed: { category: FactCategory; text: string }[];
  /** How each fact matched (same order as the facts). */
  matches: FactMatchKind[];
}
