// The worker side of loading and inspecting a session: parse, row index and pages (with a few
// recent filters cached), entry detail, raw lines, compaction detail, chart series, tokens, issues.

import { getLibraryRow } from '../engine/library/library-row';
import { LiveParse, type LiveParseResult, parseForLive } from '../engine/parse/live-parse';
import { parseSession, readEntryText } from '../engine/parse/parse-session';
import { type ByteSource, createReadAheadSource } from '../engine/parse/source';
import { getCompactionDetail } from '../engine/query/compaction-detail';
import { getEntryDetail } from '../engine/query/entry-detail';
import { computeFullTextMatches, type FullTextProgress } from '../engine/query/full-text-search';
import { formatRawJson } from '../engine/query/raw-json';
import { getRowFilterKey, type RowFilter } from '../engine/query/row-filter';
import { computeRowIndex } from '../engine/query/row-index';
import { getRowPage } from '../engine/query/row-page';
import { getSessionOverview } from '../engine/query/session-overview';
import { followBranch } from '../engine/parse/branches';
import { computeTimelineSeries, getTimelineTransferables } from '../engine/query/timeline-series';
import { computeTokenTable, getTokenTableTransferables } from '../engine/query/token-table';
import { computeRangeTotals } from '../engine/cost/range-totals';
import { type ConversationTurn, getConversation } from '../engine/query/conversation';
import { stripControls } from '../engine/export/inert-text';
import { parseMarkdown } from '../engine/export/markdown-lite';
import { computeBashSummaries } from '../engine/query/bash-summaries';
import type { Session } from '../engine/types';
import type { DrawnTurn } from './protocol';
import { getBlobReader } from './blob-reader';
import { createBlobSource } from './blob-source';
import { throttleProgress } from './progress-throttle';
import { expandDatabases } from './sqlite';
import { type EngineHandlers, getLoaded } from './engine-host';
import { getDefaultStrategyId } from '../engine/strategies/descriptors';
import { getStrategy } from '../engine/strategies/registry';
import { getPrepared, resolveRunKnobs } from './replay-handlers';
import { computeRealTriggerCount } from '../engine/replay/real-trigger';

/**
 * The auto-compact bar of the log's own agent under the log's knobs (the timeline's): the live
 * forecast's threshold. The page used Claude Code's formula for every agent (a real Codex 0.118
 * rollout: 245,400, Claude Code's legacy profile on its stated 258,400, where Codex's own rule is
 * 244,800) and never read a 1M model id. On the main line, whose prepared replay the timeline's
 * run then reuses.
 */
function getAutoCompactTokens(session: Session): number | undefined {
  const strategy = getStrategy(getDefaultStrategyId(session.format, session.meta.agent));
  const knobs = resolveRunKnobs(followBranch(session, 0), strategy.id, {});
  return strategy.thresholds(knobs).find((l) => l.id === 'auto-compact' && !l.off)?.tokens;
}

/** A turn as the conversation view draws it: Markdown read here, control sequences removed. */
function toDrawnTurn(turn: ConversationTurn): DrawnTurn {
  return {
    ...turn,
    texts: turn.texts.map((t) => ({ ...t, blocks: parseMarkdown(t.text) })),
    tools: turn.tools.map((tool) => ({
      ...tool,
      name: stripControls(tool.name),
      summary: stripControls(tool.summary),
      input: stripControls(tool.input),
      result: tool.result === undefined ? undefined : stripControls(tool.result),
    })),
  };
}

export interface LoadedSession {
  sessionId: number;
  session: Session;
  sources: ByteSource[];
  /** Row indices of recent filters, by filter key (a few; each is 4 bytes per entry). */
  rowIndexCache: Map<string, Int32Array>;
  /** Full-text matches of recent queries, by lower-cased query (1 byte per entry each). */
  fullTextCache: Map<string, Uint8Array>;
  /** Live mode: the parse kept to take the files' appended bytes (`session-append`). */
  live?: LiveParse;
}

const ROW_INDEX_CACHE_SIZE = 6;
const FULL_TEXT_CACHE_SIZE = 4;

/** Puts `value` last (most recently used), dropping the oldest entry beyond `size`. */
function setRecent<V>(cache: Map<string, V>, key: string, value: V, size: number): void {
  cache.delete(key);
  if (cache.size >= size) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, value);
}

async function getFullTextMatches(
  state: LoadedSession,
  search: string,
  signal: AbortSignal,
  onProgress: (progress: FullTextProgress) => void,
): Promise<Uint8Array> {
  const key = search.trim().toLowerCase();
  let matches = state.fullTextCache.get(key);
  if (!matches) {
    matches = await computeFullTextMatches(state.session, state.sources, key, { signal, onProgress });
    signal.throwIfAborted();
  }
  setRecent(state.fullTextCache, key, matches, FULL_TEXT_CACHE_SIZE);
  return matches;
}

async function getRowIndex(
  state: LoadedSession,
  filter: RowFilter,
  signal: AbortSignal,
  onProgress: (progress: FullTextProgress) => void = () => {},
): Promise<Int32Array> {
  const key = getRowFilterKey(filter);
  let indices = state.rowIndexCache.get(key);
  if (!indices) {
    const fullText =
      filter.fullText && filter.search.trim() !== ''
        ? await getFullTextMatches(state, filter.search, signal, onProgress)
        : undefined;
    indices = computeRowIndex(state.session, filter, fullText);
  }
  setRecent(state.rowIndexCache, key, indices, ROW_INDEX_CACHE_SIZE);
  return indices;
}

type SessionHandlers = Omit<
  EngineHandlers,
  | 'summaries-info'
  | 'summaries-prepare'
  | 'replay-setup'
  | 'replay-run'
  | 'replay-request'
  | 'replay-sweep'
  | 'replay-compare'
  | 'replay-subagents'
  | 'secrets-find'
  | 'export-file'
  | 'redact-texts'
  | 'learn-walk'
  | 'erosion'
  | 'library-whatif'
  | 'library-usage'
  | 'library-search'
  | 'library-whatif-answer'
>;

export const SESSION_HANDLERS: SessionHandlers = {
  load: async (request, { state, signal, stop, onProgress }) => {
    // The load's steps as user-timing marks (one set per load): bench/browser-load.ts reads them
    // from a Chrome trace.
    performance.mark('compactlab:worker:load-start');
    // An OpenCode database: the session it names, as its storage files (SQLite loaded only then).
    // The parse's chunks are read by a reader worker while this one parses (blob-reader.ts).
    const readLarge = getBlobReader();
    const files = await expandDatabases(
      request.files.map((f) => createBlobSource(f.name, f.blob, readLarge)),
    );
    const sources = files.map((f) => createReadAheadSource(f));
    let session: Session;
    let live: LiveParse | undefined;
    const progress = throttleProgress(onProgress);
    try {
      if (request.live) {
        // Kept for live mode: its first step reads only what was appended after this load.
        const parsed = await parseForLive(sources, { signal, onProgress: progress.report });
        live = await LiveParse.adopt(sources, parsed);
        session = parsed.session;
      } else session = await parseSession(sources, { signal, stop, onProgress: progress.report });
    } finally {
      progress.drop();
    }
    signal.throwIfAborted();
    performance.mark('compactlab:worker:parsed');
    state.loaded = {
      sessionId: request.sessionId,
      session,
      sources,
      rowIndexCache: new Map(),
      fullTextCache: new Map(),
      live,
    };
    const overview = getSessionOverview(session);
    performance.mark('compactlab:worker:overview');
    return { result: overview };
  },
  'session-append': async (request, { state, signal }) => {
    const loaded = request.sessionId === undefined ? undefined : getLoaded(state, request.sessionId);
    const started = performance.now();
    const source = createReadAheadSource(createBlobSource(request.file.name, request.file.blob));
    const others = request.others.map((f) => createReadAheadSource(createBlobSource(f.name, f.blob)));
    let step: LiveParseResult;
    let live = loaded?.live;
    if (!live) {
      // A session loaded without `live` (a dropped file) or none yet: read whole once.
      const opened = await LiveParse.open([source, ...others], { signal });
      live = opened.live;
      step = { ...opened, reparsed: 'the first read parses it whole' };
    } else step = await live.append([source, ...others], signal);
    signal.throwIfAborted();
    // A new session object: the replay, branch and query caches keyed by it start over.
    state.loaded = {
      sessionId: request.newSessionId,
      session: step.session,
      sources: [source, ...others],
      rowIndexCache: new Map(),
      fullTextCache: new Map(),
      live,
    };
    return {
      result: {
        summary: getSessionOverview(step.session),
        row: getLibraryRow(step.session),
        autoCompactTokens: getAutoCompactTokens(step.session),
        readBytes: step.readBytes,
        newLines: step.newLines,
        reparsed: step.reparsed,
        restarted: step.restarted === true,
        indicesKept: step.indicesKept,
        ms: performance.now() - started,
      },
    };
  },
  'row-index': async (request, { state, signal, onProgress }) => {
    const rows = await getRowIndex(getLoaded(state, request.sessionId), request.filter, signal, onProgress);
    const indices = rows.slice();
    return { result: { indices }, transfer: [indices.buffer] };
  },
  'row-page': async (request, { state, signal }) => {
    const loaded = getLoaded(state, request.sessionId);
    const rows = await getRowIndex(loaded, request.filter, signal);
    return { result: getRowPage(loaded.session, rows, request.start, request.count) };
  },
  'entry-detail': async (request, { state }) => ({
    result: getEntryDetail(getLoaded(state, request.sessionId).session, request.entryIndex),
  }),
  'raw-entry': async (request, { state }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    const formatted = formatRawJson(await readEntryText(sources, session, request.entryIndex));
    return { result: { ...formatted, lengthBytes: session.entries[request.entryIndex]?.lengthBytes ?? 0 } };
  },
  'compaction-detail': async (request, { state }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    const summaryIndex = session.compactions[request.compactionIndex]?.summaryEntryIndex;
    const raw = summaryIndex === undefined ? undefined : await readEntryText(sources, session, summaryIndex);
    const detail = getCompactionDetail(session, request.compactionIndex, raw);
    // What the log's own agent counted there, when it counts beyond the chart's point (Codex's
    // estimate of earlier reasoning): a replay of the session at its own knobs.
    const triggerCount =
      detail.compaction.kind === 'compact'
        ? computeRealTriggerCount(getPrepared(session), request.compactionIndex)
        : undefined;
    return { result: triggerCount ? { ...detail, triggerCount } : detail };
  },
  timeline: async (request, { state }) => {
    const series = computeTimelineSeries(
      followBranch(getLoaded(state, request.sessionId).session, request.branchId ?? 0),
    );
    performance.mark('compactlab:worker:timeline-series');
    return { result: series, transfer: getTimelineTransferables(series) };
  },
  'token-table': async (request, { state }) => {
    const table = computeTokenTable(getLoaded(state, request.sessionId).session);
    return { result: table, transfer: getTokenTableTransferables(table) };
  },
  'conversation-page': async (request, { state }) => {
    const turns = getConversation(getLoaded(state, request.sessionId).session);
    const start = Math.max(0, Math.floor(request.start));
    const page = turns.slice(start, start + Math.max(0, request.count));
    return { result: { total: turns.length, turns: page.map(toDrawnTurn) } };
  },
  'range-totals': async (request, { state }) => ({
    result: computeRangeTotals(
      getLoaded(state, request.sessionId).session,
      request.callIndices,
      request.subagentIndices,
    ),
  }),
  'bash-summaries': async (request, { state }) => ({
    result: computeBashSummaries(getLoaded(state, request.sessionId).session),
  }),
  issues: async (request, { state }) => {
    const { session } = getLoaded(state, request.sessionId);
    return {
      result: {
        issues: session.issues,
        unknownTypes: session.unknownTypes,
        fileNames: session.files.map((f) => f.name),
      },
    };
  },
};
