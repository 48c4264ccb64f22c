// Claude Code's tag cleanup of a summarizer's answer, `MD5` (docs/sources.md#ccs-summary-message): the first <analysis> block becomes "Analysis:\n…", the first
// <summary> block "Summary:\n…", runs of blank lines collapse to one, and the result is trimmed.

const ANALYSIS_BLOCK = /<analysis>([\s\S]*?)<\/analysis>/;
const SUMMARY_BLOCK = /<summary>([\s\S]*?)<\/summary>/;

/** `MD5`: turns `<analysis>`/`<summary>` tags into plain headings; idempotent. */
export function cleanSummaryTags(rawSummary: string): string {
  let result = rawSummary;
  const analysis = result.match(ANALYSIS_BLOCK);
  // A replacer function: `$` sequences in the summary must not be read as replacement patterns.
  if (analysis) result = result.replace(ANALYSIS_BLOCK, () => `Analysis:\n${analysis[1]!.trim()}`);
  const summary = result.match(SUMMARY_BLOCK);
  if (summary) result = result.replace(SUMMARY_BLOCK, () => `Summary:\n${summary[1]!.trim()}`);
  return result.replace(/\n\n+/g, '\n\n').trim();
}

/** The text inside the first `<summary>` block, or undefined when there is none. */
export function extractSummaryBlock(rawSummary: string): string | undefined {
  return rawSummary.match(SUMMARY_BLOCK)?.[1]?.trim();
}
