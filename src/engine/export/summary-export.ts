import { describeModels } from '../parse/meta-words';
import { readEntryText } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { DEFAULT_PRESET_ID, requirePreset } from '../strategies/prompt-presets';
import { readSummaryNote, readSummaryText } from '../query/compaction-detail';
import { maskJsonValue, maskText, type RedactionSettings } from '../redact/mask';
import { scoreRetention } from '../retention/score';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS, type RetentionScore } from '../retention/types';
import { prepareSummary } from '../summarize/prepare';
import { getMainCompactions } from '../summarize/span';
import type { Session, TokenCount } from '../types';
import { escapeHtml } from './escape-html';
import { makeInert } from './inert-text';
import { escapeMarkdownLinks } from './markdown-lite';
import { collectSubagentSummaries } from './subagent-summaries';
import type { ReplayedStrategy } from './strategy-name';

/**
 * Transcript text in Markdown outside a code fence: HTML in it is escaped (as the HTML report
 * does), so `<img onerror=…>` from a transcript is shown, never rendered, control sequences are
 * removed and bidi characters shown (`escapeHtml`), no link or image can form
 * (`escapeMarkdownLinks`: `[x](javascript:…)`, `![](https://…)`), line breaks become spaces.
 */
const md = (text: string): string => escapeMarkdownLinks(escapeHtml(text.replace(/\s+/g, ' ')));

// The session's summaries as Markdown and JSON: the ones the log recorded at each compaction and
// any summary runs passed in, each with its retention score; and two runs side by side.

/** One summary to export. Plain data: the UI passes its runs in this shape. */
export interface ExportedSummary {
  source: 'log' | 'run';
  /** "compaction 1 (auto) at line 120", or a run's name. */
  label: string;
  /** Where it applies: the compaction point's label. */
  pointLabel: string;
  trigger?: string;
  preTokens?: TokenCount;
  postTokens?: TokenCount;
  model?: string;
  presetId?: string;
  /** Epoch milliseconds (runs). */
  createdAtMs?: number;
  text: string;
  retention?: Omit<RetentionScore, 'matches'>;
  /** Why a recorded summary has no text to show (a remote Codex compaction's is encrypted): not scored. */
  note?: string;
  /**
   * A subagent's own compaction (absent: the main thread's): the subagent (its agent id, else its
   * log's name) and the compaction's place among its log's, 0-based, as the compaction card numbers it.
   */
  thread?: { subagent: string; index: number; total: number };
}

export interface SummaryExportHeader {
  /** The transcript's file name. */
  name: string;
  agent: string;
  versions: string[];
  /** The models that answered; `setModels`, those the log set when none answered (meta-words.ts). */
  models: string[];
  setModels?: string[];
  /** The strategy the page replayed when the export was made (strategy-name.ts), when it did. */
  replay?: ReplayedStrategy;
}

/**
 * The summaries the log recorded at its main-thread compactions, scored against their spans, then
 * with `subagents` its subagents' (subagent-summaries.ts). With a redaction, the facts come from
 * the masked span and the masked summary is scored, so no part of a secret survives as a fact.
 */
export async function collectLogSummaries(
  session: Session,
  sources: ByteSource[],
  options: { redaction?: RedactionSettings; signal?: AbortSignal; subagents?: boolean } = {},
): Promise<ExportedSummary[]> {
  const { redaction, signal } = options;
  const preset = requirePreset(DEFAULT_PRESET_ID);
  const out: ExportedSummary[] = [];
  for (const { compactionIndex, compaction } of getMainCompactions(session)) {
    if (compaction.summaryEntryIndex === undefined) continue;
    // What the summary entry holds, as its dialect reads it (pi's `summary`, Codex's `message`).
    const raw = await readEntryText(sources, session, compaction.summaryEntryIndex);
    const read = readSummaryText(session, compaction.summaryEntryIndex, raw);
    const note = read === undefined ? readSummaryNote(session, compaction.summaryEntryIndex, raw) : undefined;
    const text = read ?? '';
    const prepared = await prepareSummary(
      session,
      sources,
      { kind: 'compaction', compactionIndex },
      {
        presetId: preset.id,
        prompt: preset.prompt,
        customInstructions: '',
        systemPrompt: '',
        model: '',
        maxOutputTokens: 0,
        ...(redaction ? { redact: redaction } : {}),
      },
      signal,
    );
    const recorded: ExportedSummary = {
      source: 'log',
      label: prepared.span.label,
      pointLabel: prepared.span.label,
      trigger: compaction.trigger,
      preTokens: compaction.preTokens,
      postTokens: compaction.postTokens,
      text,
    };
    if (note !== undefined) {
      // No text to score: the note says why.
      out.push({ ...recorded, note });
      continue;
    }
    const { matches: _matches, ...retention } = scoreRetention(prepared.facts, text);
    out.push({ ...recorded, retention });
  }
  if (options.subagents)
    out.push(...(await collectSubagentSummaries(session, sources, { redaction, signal })));
  return out;
}

const fmt = (n: number | undefined): string =>
  n === undefined ? '—' : Math.round(n).toLocaleString('en-US');

/** "kept 12 of 20 facts (60%)". */
export function formatRetention(retention: ExportedSummary['retention']): string {
  if (!retention) return 'not scored';
  return `kept ${retention.kept} of ${retention.total} facts (${Math.round(retention.ratio * 100)}%)`;
}

/** A fence longer than any backtick run in the text, so the text cannot close it. */
function fence(text: string): string {
  let longest = 2;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(longest + 1);
}

/** Every text field masked: a run's model, label and point come from a server or an imported file. */
function redactAll(summaries: readonly ExportedSummary[], redaction?: RedactionSettings): ExportedSummary[] {
  if (!redaction) return [...summaries];
  return summaries.map((s) => ({
    ...s,
    label: maskText(s.label, redaction),
    pointLabel: maskText(s.pointLabel, redaction),
    ...(s.trigger === undefined ? {} : { trigger: maskText(s.trigger, redaction) }),
    ...(s.model === undefined ? {} : { model: maskText(s.model, redaction) }),
    ...(s.presetId === undefined ? {} : { presetId: maskText(s.presetId, redaction) }),
    text: maskText(s.text, redaction),
    ...(s.thread ? { thread: { ...s.thread, subagent: maskText(s.thread.subagent, redaction) } } : {}),
    ...(s.note === undefined ? {} : { note: maskText(s.note, redaction) }),
    ...(s.retention
      ? {
          retention: {
            ...s.retention,
            missed: s.retention.missed.map((m) => ({ ...m, text: maskText(m.text, redaction) })),
          },
        }
      : {}),
  }));
}

/** The header's texts masked (the file's name and path, and the log's model and version strings). */
function redactHeader(header: SummaryExportHeader, redaction?: RedactionSettings): SummaryExportHeader {
  if (!redaction) return header;
  const mask = (v: string) => maskText(v, redaction);
  return {
    ...header,
    name: mask(header.name),
    agent: mask(header.agent),
    ...(header.replay ? { replay: maskJsonValue(header.replay, redaction) as ReplayedStrategy } : {}),
    versions: header.versions.map(mask),
    models: header.models.map(mask),
    ...(header.setModels ? { setModels: header.setModels.map(mask) } : {}),
  };
}

function formatSummaryMarkdown(s: ExportedSummary, level = '##'): string {
  // Fenced, so its Markdown and HTML stay text; inert, so printing the file drives no terminal.
  const text = makeInert(s.text);
  const f = fence(text);
  const facts = s.retention
    ? FACT_CATEGORIES.filter((c) => s.retention!.byCategory[c].total > 0)
        .map(
          (c) =>
            `${FACT_CATEGORY_LABELS[c]} ${s.retention!.byCategory[c].kept}/${s.retention!.byCategory[c].total}`,
        )
        .join(' · ')
    : '';
  return [
    `${level} ${s.source === 'log' ? 'Recorded' : 'Run'}: ${md(s.label)}`,
    '',
    `- at: ${md(s.pointLabel)}`,
    ...(s.trigger ? [`- trigger: ${md(s.trigger)}`] : []),
    ...(s.preTokens !== undefined ? [`- tokens: ${fmt(s.preTokens)} → ${fmt(s.postTokens)}`] : []),
    ...(s.model ? [`- model: ${md(s.model)}${s.presetId ? ` (preset ${md(s.presetId)})` : ''}`] : []),
    `- retention: ${formatRetention(s.retention)}${facts ? ` — ${facts}` : ''}`,
    ...(s.note ? [`- ${md(s.note)}`] : []),
    // No text (an encrypted summary, a record without one): the note says so, no empty block.
    ...(text === '' ? [] : ['', `${f}text`, text, f]),
  ].join('\n');
}

/** The summaries as one Markdown text. */
export function formatSummariesMarkdown(
  header: SummaryExportHeader,
  summaries: readonly ExportedSummary[],
  redaction?: RedactionSettings,
): string {
  const all = redactAll(summaries, redaction);
  const list = all.filter((s) => !s.thread);
  const h = redactHeader(header, redaction);
  return [
    `# Summaries of ${md(h.name)}`,
    '',
    `${md(h.agent)} ${md(h.versions.join(', '))} · models ${md(describeModels(h) ?? '?')} · ${list.length} ${list.length === 1 ? 'summary' : 'summaries'}${
      all.length > list.length ? ` · ${all.length - list.length} more in subagents (below)` : ''
    }`,
    '',
    ...(h.replay
      ? [
          `Replayed under ${md(h.replay.name)}${h.replay.custom ? `: ${md(h.replay.custom.howToLoad)}.` : '.'}`,
          '',
        ]
      : []),
    ...list.map((s) => formatSummaryMarkdown(s)),
    ...formatSubagentSections(all.filter((s) => s.thread)),
    '',
  ].join('\n');
}

/** Subagents' summaries: a heading per subagent, in the order their first summary comes. */
function formatSubagentSections(summaries: readonly ExportedSummary[]): string[] {
  const bySubagent = new Map<string, ExportedSummary[]>();
  for (const s of summaries) {
    const key = s.thread!.subagent;
    bySubagent.set(key, [...(bySubagent.get(key) ?? []), s]);
  }
  return [...bySubagent].flatMap(([subagent, list]) => [
    '',
    `## Subagent ${md(subagent)}`,
    '',
    `Its own context's compactions (its log's numbering): ${list.length} ${list.length === 1 ? 'summary' : 'summaries'}.`,
    '',
    ...list.map((s) => formatSummaryMarkdown(s, '###')),
  ]);
}

/** The summaries as JSON (`{ transcript, summaries }`), pretty-printed. */
export function formatSummariesJson(
  header: SummaryExportHeader,
  summaries: readonly ExportedSummary[],
  redaction?: RedactionSettings,
): string {
  return `${JSON.stringify({ transcript: redactHeader(header, redaction), summaries: redactAll(summaries, redaction) }, null, 2)}\n`;
}

/** Two summaries side by side (a Markdown table of their lines) with their retention scores. */
export function formatRunComparisonMarkdown(
  a: ExportedSummary,
  b: ExportedSummary,
  redaction?: RedactionSettings,
): string {
  const [x, y] = redactAll([a, b], redaction) as [ExportedSummary, ExportedSummary];
  const cell = (t: string | undefined) =>
    escapeMarkdownLinks(escapeHtml(t ?? ''))
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/`/g, '\\`');
  const left = x.text.split('\n');
  const right = y.text.split('\n');
  const rows: string[] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++)
    rows.push(`| ${cell(left[i])} | ${cell(right[i])} |`);
  const missedOnlyBy = (p: ExportedSummary, q: ExportedSummary): string[] => {
    const kept = new Set(q.retention?.missed.map((m) => m.text) ?? []);
    return (p.retention?.missed ?? [])
      .filter((m) => !kept.has(m.text))
      .map((m) => `- ${m.category}: ${md(m.text)}`);
  };
  return [
    '# Run comparison',
    '',
    `| | A: ${cell(x.label)} | B: ${cell(y.label)} |`,
    '|---|---|---|',
    `| at | ${cell(x.pointLabel)} | ${cell(y.pointLabel)} |`,
    `| model | ${cell(x.model ?? '—')} | ${cell(y.model ?? '—')} |`,
    `| retention | ${formatRetention(x.retention)} | ${formatRetention(y.retention)} |`,
    `| characters | ${fmt(x.text.length)} | ${fmt(y.text.length)} |`,
    '',
    '## Facts only A missed',
    ...(missedOnlyBy(x, y).length ? missedOnlyBy(x, y) : ['- none']),
    '',
    '## Facts only B missed',
    ...(missedOnlyBy(y, x).length ? missedOnlyBy(y, x) : ['- none']),
    '',
    '## Texts',
    '',
    '| A | B |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}
