import { getDialectInfo } from '../parse/dialects/descriptors';
import { estimateTextTokens } from '../tokens/estimate';
import type { Session, TokenCount } from '../types';

// Claude Code's bash-output summarization (docs/sources.md#csa-bash-summaries
// below): a shell result over 5,000 characters goes to a smaller model that judges whether it is
// "log spew" (build logs, test output, repetitive debug logs) or unique content; spew becomes a
// markdown summary (overview, detailed summary, errors, 3+ verbatim snippets) and the raw output
// is saved to disk. We have no model: the judgement below is ours, heuristics over the result's
// text (its stored preview, the first 2,000 characters of a long result), stated in `SPEW_RULES`.

/** §4 "Threshold: Only triggers for outputs > 5,000 characters" (also §"Key Thresholds"). */
export const BASH_SUMMARY_THRESHOLD_CHARS = 5_000;

/** The summary's sections, as §4 lists them. */
export const BASH_SUMMARY_SHAPE = [
  'Overview',
  'Detailed summary',
  'Errors list',
  'Verbatim snippets (at least 3)',
] as const;

/** §4: what the model is told in place of the raw output. */
const BASH_OUTPUT_POINTER = 'The complete bash output is available at <path>';

/**
 * Our estimate of a summary's size (§4 gives none): 1,200 characters of overview and detailed
 * summary, plus the error lines (up to 10, 120 characters each), the 3 snippets (up to 3 lines,
 * 200 characters each, from the output) and the pointer sentence; never more than the output.
 */
const SUMMARY_PROSE_CHARS = 1_200;
const MAX_ERROR_LINES = 10;
const ERROR_LINE_CHARS = 120;
const SNIPPETS = 3;
const SNIPPET_CHARS = 200;

/** Our log-spew heuristics: a result is spew when any rule's share of lines reaches its bar. */
export const SPEW_RULES = [
  {
    id: 'repetitive',
    label: 'lines repeat (digits masked)',
    minShare: 0.3,
  },
  {
    id: 'build-test',
    label: 'build or test runner lines (PASS/FAIL, ok, ✓, [n/m], Compiling, npm WARN, warning:)',
    minShare: 0.3,
  },
  {
    id: 'log-lines',
    label: 'log lines (timestamps or INFO/DEBUG/WARN/TRACE levels)',
    minShare: 0.5,
  },
] as const;

const BUILD_TEST =
  /^\s*(?:PASS|FAIL|ok\b|not ok\b|✓|✗|✔|✘|×|\[\d+\/\d+\]|Compiling|Downloading|Downloaded|Building|Installing|npm (?:WARN|ERR)|warning:|error\[|test .* \.\.\. |\d+ passing|\d+ failing|Step \d+\/\d+|#\d+ )/i;
const LOG_LINE =
  /^\s*(?:\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\[?\d\d:\d\d:\d\d|\[?(?:INFO|DEBUG|WARN|WARNING|TRACE|ERROR)\]?\b)/;
const ERROR_LINE = /\b(?:error|failed|failure|exception|panic|traceback)\b/i;

interface BashSummaryRow {
  /** The entry holding the result (its first part, when the log wrote it in parts), and the one holding its call. */
  entryIndex: number;
  useEntryIndex?: number;
  toolUseId: string;
  toolName: string;
  command?: string;
  /** The result's full length. */
  chars: number;
  /** The engine's estimate of the result (chars / 4). */
  resultTokens: TokenCount;
  judgement: 'log-spew' | 'unique';
  /** The spew rules that fired. */
  reasons: string[];
  /** Error lines seen in the text (the summary's "Errors list"). */
  errorLines: number;
  /** Our estimate of the summary (0 when the output is kept). */
  summaryTokens: TokenCount;
  /** resultTokens − summaryTokens for spew; 0 for unique content. */
  savedTokens: TokenCount;
  isError: boolean;
  isSidechain: boolean;
}

export interface BashSummaries {
  thresholdChars: number;
  shellTools: string[];
  rows: BashSummaryRow[];
  /** Shell calls with a result at all (a result written in parts counts once), and of those over the threshold. */
  shellResults: number;
  spewCount: number;
  totalResultTokens: TokenCount;
  totalSavedTokens: TokenCount;
}

/** The spew rules that fire on a text, and its error lines. */
export function judgeLogSpew(text: string): { reasons: string[]; errorLines: string[] } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const errorLines = lines.filter((l) => ERROR_LINE.test(l));
  if (lines.length < 5) return { reasons: [], errorLines };
  const seen = new Set<string>();
  let repeated = 0;
  let build = 0;
  let log = 0;
  for (const l of lines) {
    const masked = l.replace(/\d+/g, '#').trim();
    if (seen.has(masked)) repeated++;
    else seen.add(masked);
    if (BUILD_TEST.test(l)) build++;
    if (LOG_LINE.test(l)) log++;
  }
  const shares: Record<string, number> = {
    repetitive: repeated / lines.length,
    'build-test': build / lines.length,
    'log-lines': log / lines.length,
  };
  return { reasons: SPEW_RULES.filter((r) => shares[r.id]! >= r.minShare).map((r) => r.id), errorLines };
}

/** Our estimate of the §4 summary of a text: prose, error lines, snippets, pointer (tokens). */
function estimateBashSummaryTokens(text: string, errorLines: readonly string[]): TokenCount {
  let chars = SUMMARY_PROSE_CHARS + BASH_OUTPUT_POINTER.length;
  for (const l of errorLines.slice(0, MAX_ERROR_LINES)) chars += Math.min(l.length, ERROR_LINE_CHARS) + 3;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (let s = 0; s < SNIPPETS; s++) {
    // Snippets from the start, the middle and the end of the output.
    const at = Math.floor((s * Math.max(0, lines.length - 3)) / Math.max(1, SNIPPETS - 1));
    chars += Math.min(SNIPPET_CHARS, lines.slice(at, at + 3).join('\n').length) + 8;
  }
  return estimateTextTokens(chars);
}

/** Which shell results §4 would catch, its judgement, and the tokens summarizing them saves. Linear in entries. */
export function computeBashSummaries(session: Session): BashSummaries {
  const shellTools = [...(getDialectInfo(session.format)?.shellTools ?? ['Bash'])];
  const uses = new Map<string, { name: string; command?: string; entryIndex: number }>();
  const out: BashSummaries = {
    thresholdChars: BASH_SUMMARY_THRESHOLD_CHARS,
    shellTools,
    rows: [],
    shellResults: 0,
    spewCount: 0,
    totalResultTokens: 0,
    totalSavedTokens: 0,
  };
  // One call's output, whole: Cline's UI log writes a command's output as it streams, one
  // `command_output` message a chunk, each a result of the same call (62 results for 28 commands in
  // a real task); the model is sent them as one, so they are judged as one.
  const results = new Map<
    string,
    {
      entryIndex: number;
      isSidechain: boolean;
      texts: string[];
      chars: number;
      isError: boolean;
      persisted: boolean;
    }
  >();
  for (const entry of session.entries) {
    for (const b of entry.blocks) {
      if (b.kind === 'tool-use') {
        if (shellTools.includes(b.name))
          uses.set(b.id, { name: b.name, command: b.command, entryIndex: entry.index });
        continue;
      }
      if (b.kind !== 'tool-result' || !uses.has(b.toolUseId)) continue;
      const result = results.get(b.toolUseId);
      if (!result) {
        results.set(b.toolUseId, {
          entryIndex: entry.index,
          isSidechain: entry.isSidechain,
          texts: [b.text],
          chars: b.chars,
          isError: b.isError,
          persisted: b.persisted,
        });
        continue;
      }
      result.texts.push(b.text);
      result.chars += b.chars;
      result.isError ||= b.isError;
      result.persisted ||= b.persisted;
    }
  }
  out.shellResults = results.size;
  for (const [toolUseId, r] of results) {
    // A `<persisted-output>` stub was already saved to disk by the agent: not sent whole.
    if (r.chars <= BASH_SUMMARY_THRESHOLD_CHARS || r.persisted) continue;
    const use = uses.get(toolUseId)!;
    const text = r.texts.join('\n');
    const { reasons, errorLines } = judgeLogSpew(text);
    const resultTokens = estimateTextTokens(r.chars);
    const spew = reasons.length > 0;
    const summaryTokens = spew ? Math.min(resultTokens, estimateBashSummaryTokens(text, errorLines)) : 0;
    const row: BashSummaryRow = {
      entryIndex: r.entryIndex,
      useEntryIndex: use.entryIndex,
      toolUseId,
      toolName: use.name,
      command: use.command,
      chars: r.chars,
      resultTokens,
      judgement: spew ? 'log-spew' : 'unique',
      reasons,
      errorLines: errorLines.length,
      summaryTokens,
      savedTokens: spew ? resultTokens - summaryTokens : 0,
      isError: r.isError,
      isSidechain: r.isSidechain,
    };
    out.rows.push(row);
    if (spew) out.spewCount++;
    out.totalResultTokens += resultTokens;
    out.totalSavedTokens += row.savedTokens;
  }
  return out;
}
