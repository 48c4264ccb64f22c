// The worker side of sharing: the session's secrets, and every export the Export menu offers
// (engine/export/ does the work; the redaction settings come with each request).

import { describeReplayedStrategy } from '../engine/export/strategy-name';
import { computeCompactedJsonlLines } from '../engine/export/compacted-jsonl';
import { computeReportHtml } from '../engine/export/report-html';
import {
  collectLogSummaries,
  formatRunComparisonMarkdown,
  formatSummariesJson,
  formatSummariesMarkdown,
} from '../engine/export/summary-export';
import { renderTimelineSvg } from '../engine/export/timeline-svg';
import { transcriptHtmlLines, transcriptMarkdownLines } from '../engine/export/transcript-export';
import { getShownMainFile } from '../engine/parse/other-sessions';
import { parseSession } from '../engine/parse/parse-session';
import { computeConversation } from '../engine/query/conversation';
import { computeTimelineSeries } from '../engine/query/timeline-series';
import { computeReplay } from '../engine/replay/compute-replay';
import type { ReplayResult } from '../engine/replay/types';
import { getRedactionRefusal, maskText } from '../engine/redact/mask';
import { findSessionSecrets } from '../engine/redact/session-secrets';
import type { ByteSource } from '../engine/parse/source';
import type { RedactionSettings } from '../engine/redact/mask';
import type { Session } from '../engine/types';
import { type EngineHandlers, getLoaded } from './engine-host';
import { withSessionSecrets } from './known-secrets';
import type { EngineRequest, ExportReplayFields } from './protocol';
import { getPrepared, resolveRunKnobs } from './replay-handlers';

/** The replay an export (or the erosion view) follows, on the replay's own preparation. */
export function runReplay(session: Session, fields: ExportReplayFields): ReplayResult {
  const knobs = resolveRunKnobs(session, fields.strategyId, fields.overrides);
  return computeReplay(getPrepared(session), fields.strategyId, knobs, {
    summaryModel: fields.summaryModel,
    manual: fields.manual,
    suppliedSummaryTokens: fields.suppliedSummaryTokens,
  });
}

type ShareHandlers = Pick<EngineHandlers, 'secrets-find' | 'export-file' | 'redact-texts'>;

export const SHARE_HANDLERS: ShareHandlers = {
  'secrets-find': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    return { result: await findSessionSecrets(session, sources, signal) };
  },
  'export-file': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    // Every value found anywhere in the session is masked wherever it occurs (issue 22).
    const redaction =
      request.redaction && (await withSessionSecrets(request.redaction, session, sources, signal));
    const parts = await renderExport(session, sources, request, redaction, signal);
    // Scanned once more before it leaves the worker: a found value that survived refuses the export.
    const refusal = redaction && getRedactionRefusal(parts, redaction);
    if (refusal) throw new Error(`Export refused: ${refusal}. Nothing was downloaded.`);
    return { result: toFile(parts) };
  },
  'redact-texts': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    const redaction = await withSessionSecrets(request.redaction, session, sources, signal);
    return { result: request.texts.map((t) => maskText(t, redaction)) };
  },
};

/**
 * The file of an export's parts joined by newlines, never joined as one string: the compacted
 * transcript or the transcript of a 1 GB session is past the longest string a JavaScript engine
 * holds (about 512 M characters in V8), and a Blob goes to the page by reference.
 */
function toFile(parts: readonly string[]): Blob {
  const pieces: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (i > 0) pieces.push('\n');
    pieces.push(part);
  }
  return new Blob(pieces);
}

/**
 * One export's text as parts to be joined by newlines (see `toFile`), masked by `redaction`
 * when given.
 */
async function renderExport(
  session: Session,
  sources: ByteSource[],
  request: EngineRequest<'export-file'>,
  redaction: RedactionSettings | undefined,
  signal: AbortSignal,
): Promise<readonly string[]> {
  const name = getShownMainFile(session)?.name ?? 'transcript';
  // The strategy the page replays, named (a custom one with how to load it) where an export says it.
  const strategy = request.replay ? describeReplayedStrategy(request.replay.strategyId) : undefined;
  const header = {
    name,
    agent: session.meta.agent,
    versions: session.meta.versions,
    models: session.meta.models,
    ...(session.meta.setModels ? { setModels: session.meta.setModels } : {}),
    ...(strategy ? { replay: strategy } : {}),
  };
  switch (request.format) {
    case 'summaries-md':
    case 'summaries-json': {
      const summaries = [
        ...(await collectLogSummaries(session, sources, { redaction, signal, subagents: true })),
        ...(request.runs ?? []),
      ];
      return [
        request.format === 'summaries-md'
          ? formatSummariesMarkdown(header, summaries, redaction)
          : formatSummariesJson(header, summaries, redaction),
      ];
    }
    case 'run-comparison-md': {
      const [a, b] = request.runs ?? [];
      if (!a || !b) throw new Error('A comparison needs two runs');
      return [formatRunComparisonMarkdown(a, b, redaction)];
    }
    case 'compacted-jsonl': {
      if (!request.replay) throw new Error('The compacted transcript needs a replay');
      const replay = runReplay(session, request.replay);
      const byPoint = request.summariesByPoint ?? {};
      const summaries: Record<number, string> = {};
      for (const [i, e] of replay.events.entries()) {
        const real = 'realCompactionIndex' in e ? e.realCompactionIndex : undefined;
        const text =
          (real !== undefined ? byPoint[`compaction:${real}`] : undefined) ??
          byPoint[`api-call:${e.afterApiCall}`];
        if (e.kind === 'compact' && text !== undefined) summaries[i] = text;
      }
      const lines = await computeCompactedJsonlLines(session, sources, {
        events: replay.events,
        summaries,
        strategy,
        redaction,
        signal,
      });
      // One record per line, and a newline after the last.
      return lines.length ? [...lines, ''] : [];
    }
    case 'report-html': {
      const replay =
        request.replay && session.apiCalls.length > 0 ? runReplay(session, request.replay) : undefined;
      return [
        await computeReportHtml(session, sources, {
          replay,
          runs: request.runs,
          redaction,
          signal,
        }),
      ];
    }
    case 'transcript-md':
    case 'transcript-html': {
      // The whole texts: the files read again with no preview limit (the loaded session keeps
      // 2,000-character previews), then dropped once written.
      const full = await parseSession(sources, { signal, previewChars: Number.MAX_SAFE_INTEGER });
      const turns = computeConversation(full);
      const transcriptHeader = {
        name: header.name,
        agent: header.agent,
        models: header.models,
        setModels: header.setModels,
      };
      return request.format === 'transcript-md'
        ? transcriptMarkdownLines(transcriptHeader, turns, { redaction })
        : transcriptHtmlLines(transcriptHeader, turns, { redaction });
    }
    case 'timeline-svg': {
      const replay =
        request.replay && session.apiCalls.length > 0 ? runReplay(session, request.replay) : undefined;
      const svg = renderTimelineSvg(computeTimelineSeries(session), {
        title: `Context timeline of ${redaction ? maskText(name, redaction) : name}${replay && strategy ? `, replayed under ${redaction ? maskText(strategy.name, redaction) : strategy.name}` : ''}`,
        thresholds: replay?.thresholds,
        replay: replay ? { simulatedTokens: replay.simulatedTokens, events: replay.events } : undefined,
      });
      return [svg];
    }
  }
}
