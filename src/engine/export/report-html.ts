import { computeLogErosion, computeReplayErosion, type ErosionChain } from '../erosion/erosion';
import { computeInspectReport } from '../inspect/report';
import { countCompactions, isMainThreadCompaction } from '../parse/main-thread';
import type { ByteSource } from '../parse/source';
import { formatPlural } from '../query/numbering';
import { computeTimelineSeries } from '../query/timeline-series';
import { maskText, type RedactionSettings } from '../redact/mask';
import { getStatedCostUsd } from '../parse/stated-cost';
import { formatUsd } from '../replay/compare-table';
import type { ReplayResult } from '../replay/types';
import { describeReplayedStrategy } from './strategy-name';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS } from '../retention/types';
import type { Session } from '../types';
import { renderErosionSvg } from './erosion-svg';
import { escapeHtml } from './escape-html';
import { collectLogSummaries, type ExportedSummary, formatRetention } from './summary-export';
import { describeModels } from '../parse/meta-words';
import { renderTimelineSvg } from './timeline-svg';

// The one-file report: header, timeline picture, compactions with their summaries and retention
// scores, a replay's events and any summary runs. One HTML string with inline CSS and an inline
// SVG, no script and nothing loaded from anywhere (a CSP meta tag forbids it), so it opens offline.
// Every text from the transcript goes through `escapeHtml` (after the redaction pass, if any).

interface ReportOptions {
  /** A replay to draw and list (its thresholds also draw the threshold lines). */
  replay?: ReplayResult;
  /** Summary runs to include after the log's own summaries. */
  runs?: readonly ExportedSummary[];
  redaction?: RedactionSettings;
  /** Epoch ms written as "generated at" (tests pass a fixed one). */
  generatedAtMs?: number;
  signal?: AbortSignal;
}

const STYLE = `
:root { color-scheme: light dark; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1040px; padding: 16px 24px 48px; color: #111827; background: #fff; }
@media (prefers-color-scheme: dark) { body { color: #e5e7eb; background: #111827; } table th { background: #1f2937 !important; } pre { background: #1f2937 !important; } }
h1 { font-size: 20px; margin: 8px 0; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d1d5db; } h3 { font-size: 15px; margin: 18px 0 6px; }
dl.header { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; } dl.header dt { color: #6b7280; } dl.header dd { margin: 0; overflow-wrap: anywhere; }
figure { margin: 12px 0; overflow-x: auto; } figure svg { max-width: 100%; height: auto; border: 1px solid #d1d5db; }
table { border-collapse: collapse; width: 100%; font-size: 13px; } th, td { border: 1px solid #d1d5db; padding: 3px 6px; text-align: left; vertical-align: top; } th { background: #f3f4f6; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f9fafb; border: 1px solid #e5e7eb; padding: 8px; max-height: 480px; overflow: auto; font-size: 12px; }
details summary { cursor: pointer; }
.muted { color: #6b7280; }
`;

const fmt = (n: number | undefined): string =>
  n === undefined ? '—' : Math.round(n).toLocaleString('en-US');

/** Builds the report. Reads the summaries' records from the sources. */
export async function computeReportHtml(
  session: Session,
  sources: ByteSource[],
  options: ReportOptions = {},
): Promise<string> {
  const unmasked = options.redaction;
  /** Transcript text to HTML: masked when redacting, then escaped. */
  const t = (text: string | undefined): string =>
    escapeHtml(options.redaction ? maskText(text ?? '', unmasked) : (text ?? ''));
  const report = computeInspectReport(session);
  const series = computeTimelineSeries(session);
  const name = report.mainFile ?? 'transcript';
  const replay = options.replay;
  const svg = renderTimelineSvg(series, {
    title: `Context timeline of ${options.redaction ? maskText(name, unmasked) : name}`,
    thresholds: replay?.thresholds,
    replay: replay ? { simulatedTokens: replay.simulatedTokens, events: replay.events } : undefined,
  });
  // The subagents' too, each in its own log (as the Markdown export lists them).
  const summaries = await collectLogSummaries(session, sources, {
    redaction: options.redaction,
    signal: options.signal,
    subagents: true,
  });
  const out: string[] = [];
  out.push(
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>CompactLab report: ${t(name)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<header><h1>CompactLab report: ${t(name)}</h1>`,
    '<dl class="header">',
  );
  const row = (label: string, value: string) => out.push(`<dt>${label}</dt><dd>${value}</dd>`);
  // The session's name as its agent lists it (the log's own records, so masked when redacting).
  if (report.title) row('name', t(report.title.text));
  row('agent', `${t(report.agent)} ${t(report.versions.join(', '))}`);
  row('models', t(describeModels(report) ?? '?'));
  row('cwd', t(report.cwd ?? '?'));
  row('branch', t(report.gitBranch ?? '?'));
  row('time', `${t(report.start ?? '?')} → ${t(report.end ?? '?')}`);
  row(
    'size',
    `${formatPlural(report.entries, 'entry', 'entries')} · ${formatPlural(report.userTurns, 'user turn')} · ${formatPlural(report.apiCalls.length, 'API call')} · peak context ${fmt(report.peakContextTokens)} tokens`,
  );
  // The agent's own figure where its log writes one (Cline, OpenCode, pi; the SDK stream's runs).
  const stated = getStatedCostUsd(report);
  if (stated !== undefined) row('cost stated by the log', formatUsd(stated));
  // The main thread's, as the page's header counts them; a subagent's are of its own context.
  const counts = countCompactions(session);
  const onMain = report.compactions.filter((_, i) =>
    isMainThreadCompaction(session, session.compactions[i]!),
  );
  const inSubagents = report.compactions.filter(
    (_, i) => !isMainThreadCompaction(session, session.compactions[i]!),
  );
  row(
    'compactions',
    `${onMain.length} (${counts.auto} auto · ${counts.manual} manual · ${counts.micro} µ${counts.truncated > 0 ? ` · ${counts.truncated} truncation` : ''})${counts.inSubagents > 0 ? ` · ${counts.inSubagents} in subagents` : ''}`,
  );
  row('parse issues', `${report.issues.length}`);
  if (options.redaction) row('redaction', 'secrets masked');
  out.push('</dl></header>');
  out.push('<section id="timeline"><h2>Timeline</h2><figure>', svg, '</figure>');
  out.push(
    `<p class="muted">Blue: context of each API call as recorded.${replay ? ` Orange: replay with ${t(strategyName(replay.strategyId))} (${formatPlural(replay.events.filter((e) => e.kind === 'compact').length, 'compaction')}).` : ''} A/M: auto/manual compaction, µ: microcompact.</p></section>`,
  );
  out.push('<section id="compactions"><h2>Compactions</h2>');
  if (onMain.length === 0) out.push('<p>None in this transcript.</p>');
  else {
    out.push(
      '<table><thead><tr><th>#</th><th>line</th><th>kind</th><th>trigger</th><th>before</th><th>after</th></tr></thead><tbody>',
    );
    for (const [i, c] of onMain.entries()) {
      out.push(
        `<tr><td class="num">${i + 1}</td><td class="num">${c.line}</td><td>${t(c.kind)}</td><td>${t(c.trigger)}</td><td class="num">${fmt(c.preTokens)}</td><td class="num">${fmt(c.kind === 'compact' ? c.postTokens : c.tokensSaved)}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  // Each in its own log: the main thread's call numbers and the timeline above are not theirs.
  if (inSubagents.length > 0) {
    out.push(
      `<h3>In subagents' logs (${inSubagents.length})</h3>`,
      '<table><thead><tr><th>log</th><th>line</th><th>kind</th><th>trigger</th><th>before</th></tr></thead><tbody>',
    );
    for (const c of inSubagents) {
      out.push(
        `<tr><td>${t(c.file.split('/').pop())}</td><td class="num">${c.line}</td><td>${t(c.kind)}</td><td>${t(c.trigger)}</td><td class="num">${fmt(c.preTokens)}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  out.push('</section>');
  const summarySection = (title: string, id: string, list: readonly ExportedSummary[]) => {
    out.push(`<section id="${id}"><h2>${title}</h2>`);
    if (list.length === 0) out.push('<p>None.</p>');
    for (const s of list) {
      const where = s.thread ? `Subagent ${s.thread.subagent}: ` : '';
      out.push(`<article class="summary"><h3>${t(where + s.label)}</h3>`);
      const facts = s.retention
        ? FACT_CATEGORIES.filter((c) => s.retention!.byCategory[c].total > 0)
            .map(
              (c) =>
                `${FACT_CATEGORY_LABELS[c]} ${s.retention!.byCategory[c].kept}/${s.retention!.byCategory[c].total}`,
            )
            .join(' · ')
        : '';
      out.push(
        // Of the span it replaced: erosion below counts every fact held since the start, and a
        // real session's second compaction read "Retention: kept 45 of 49 facts (92%)" above
        // "kept of all held 57/227 (25%)" for the same summary.
        `<p class="retention">Retention of the span it replaced: ${t(formatRetention(s.retention))}${facts ? ` — ${t(facts)}` : ''}${s.model ? ` · model ${t(s.model)}` : ''}</p>`,
      );
      if (s.note) out.push(`<p class="note">${t(s.note)}</p>`);
      if (s.retention && s.retention.missed.length > 0) {
        out.push(`<details><summary>${formatPlural(s.retention.missed.length, 'fact')} missed</summary><ul>`);
        for (const m of s.retention.missed) out.push(`<li>${t(m.category)}: ${t(m.text)}</li>`);
        out.push('</ul></details>');
      }
      out.push(`<pre>${t(s.text)}</pre></article>`);
    }
    out.push('</section>');
  };
  summarySection(
    'Summaries',
    'summaries',
    summaries.filter((s) => !s.thread),
  );
  const inSubagentLogs = summaries.filter((s) => s.thread);
  if (inSubagentLogs.length > 0)
    summarySection("Summaries in subagents' logs (their own contexts)", 'subagent-summaries', inSubagentLogs);
  // Erosion: each summary of the chain against everything the session held since its start.
  const chains: ErosionChain[] = [];
  const erosionOptions = { redaction: options.redaction, signal: options.signal };
  if (onMain.length > 0) chains.push(await computeLogErosion(session, sources, erosionOptions));
  if (replay)
    chains.push(
      await computeReplayErosion(session, sources, replay.events, replay.strategyId, erosionOptions),
    );
  out.push('<section id="erosion"><h2>Erosion across compactions</h2>');
  if (chains.every((c) => c.steps.length === 0)) out.push('<p>No chain of summaries to score.</p>');
  for (const chain of chains) {
    if (chain.steps.length === 0) continue;
    const title =
      chain.source === 'log'
        ? "The log's own summaries"
        : `Replay with ${chain.strategyId ?? ''} (built-in summaries)`;
    out.push(`<h3>${t(title)}</h3>`);
    out.push(
      '<figure class="erosion">',
      renderErosionSvg(chain, { title: `Retention after each compaction: ${title}` }),
      '</figure>',
    );
    out.push(
      '<table><thead><tr><th>#</th><th>compaction</th><th>kept of all held</th><th>first span kept</th><th>new</th><th>lost</th></tr></thead><tbody>',
    );
    for (const step of chain.steps) {
      const first = step.byOrigin[0];
      out.push(
        `<tr><td class="num">${step.index + 1}</td><td>${t(step.label)}</td><td class="num">${step.kept}/${step.total} (${Math.round(step.ratio * 100)}%)</td><td class="num">${first?.kept ?? 0}/${first?.total ?? 0}</td><td class="num">${step.newFacts}</td><td class="num">${step.lost.length}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
    for (const step of chain.steps) {
      if (step.lost.length === 0) continue;
      out.push(
        `<details><summary>Compaction ${step.index + 1}: ${step.lost.length} facts lost</summary><ul>`,
      );
      for (const id of step.lost) {
        const f = chain.facts[id];
        if (f)
          out.push(`<li>${t(f.category)}: ${t(f.text)} <span class="muted">(line ${f.line})</span></li>`);
      }
      out.push('</ul></details>');
    }
    for (const note of chain.notes) out.push(`<p class="muted">${t(note)}</p>`);
  }
  out.push('</section>');
  if (options.runs?.length) summarySection('Summary runs', 'runs', options.runs);
  if (replay) {
    out.push(`<section id="replay"><h2>Replay: ${t(strategyName(replay.strategyId))}</h2>`);
    const custom = describeReplayedStrategy(replay.strategyId).custom;
    if (custom)
      out.push(
        `<p class="muted" data-custom-strategy>${t(`${strategyName(replay.strategyId)} is ${custom.howToLoad}.`)}</p>`,
      );
    const c = replay.comparison.counts;
    out.push(
      `<p>Against the log: ${fmt(c.matched)} matched, ${fmt(c.early)} early, ${fmt(c.late)} late, ${fmt(c.missing)} missing, ${fmt(c.extra)} extra.</p>`,
    );
    out.push(
      '<table><thead><tr><th>#</th><th>event</th><th>trigger</th><th>after API call</th><th>before</th><th>after</th></tr></thead><tbody>',
    );
    for (const [i, e] of replay.events.entries()) {
      out.push(
        `<tr><td class="num">${i + 1}</td><td>${t(e.kind)}${'mechanism' in e ? ` (${t(e.mechanism)})` : ''}</td><td>${t(e.trigger)}</td><td class="num">${e.afterApiCall + 1}</td><td class="num">${fmt(e.preTokens)}</td><td class="num">${fmt(e.postTokens)}</td></tr>`,
      );
    }
    out.push('</tbody></table></section>');
  }
  const when = new Date(options.generatedAtMs ?? Date.now()).toISOString();
  out.push(
    `<footer><p class="muted">Generated by CompactLab at ${when}.</p></footer>`,
    '</body>',
    '</html>',
    '',
  );
  return out.join('\n');
}

/** A strategy's name as the page shows it (a custom one's "Custom: <label>"), with its id. */
const strategyName = (id: string): string => describeReplayedStrategy(id).name;
