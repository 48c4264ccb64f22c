import { isMainThreadEntry } from '../parse/main-thread';
import { readEntryText } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { getDialectInfo } from '../parse/dialects/descriptors';
import { getThreadPlace, readSummaryText } from '../query/compaction-detail';
import { getAgentPresetId } from '../strategies/prompt-presets';
import { maskText } from '../redact/mask';
import type { Session, TokenCount } from '../types';
import { type PreparedSummary, type PromptSettings, prepareSummary } from './prepare';
import { getRecordedCallFigures, type RecordedCallFigures } from './recorded';
import { type CompactionPoint, getMainCompactions, getSubagentCompactions } from './span';

// What the Summaries view asks of the worker that holds the session: the transcript's identity
// and compaction points, and the exact request for a point. Plain data in and out.

type SummariesOp = { op: 'info' } | { op: 'prepare'; point: CompactionPoint; settings: PromptSettings };

export interface SummariesInfo {
  op: 'info';
  /** SHA-256 of the main file's bytes (hex); runs are matched to transcripts by it. */
  contentHash: string;
  /** `sha256` over the whole file, or `sha256-sampled` over its size, head and tail (very large files). */
  hashKind: 'sha256' | 'sha256-sampled';
  name: string;
  compactions: {
    compactionIndex: number;
    uuid?: string;
    trigger: string;
    line: number;
    preTokens?: TokenCount;
    apiCallBefore?: number;
    hasSummary: boolean;
  }[];
  /**
   * The subagents' compactions of their own contexts, each in its subagent's log (its place there,
   * 0-based, of `total`), in log order; never among `compactions`, whose figures are the main
   * thread's (a replay's summary sizes, the default point).
   */
  subagentCompactions: {
    compactionIndex: number;
    uuid?: string;
    trigger: string;
    /** In its subagent's log. */
    line: number;
    preTokens?: TokenCount;
    hasSummary: boolean;
    subagent: { id: string; type?: string; description?: string };
    index: number;
    total: number;
  }[];
  /** Main-thread API calls: index and context size. */
  apiCalls: { index: number; contextTokens: TokenCount }[];
  /** The prompt preset the log's own agent summarizes with (prompt-presets.ts, getAgentPresetId). */
  agentPresetId: string;
}

export interface SummariesPrepared extends PreparedSummary {
  op: 'prepare';
  /** At a real compaction: the summary Claude Code wrote there (its continuation message). */
  recordedContinuation?: string;
  /** At a real compaction: what its summary call read, wrote and took, as the log states them. */
  recordedFigures?: RecordedCallFigures;
}

type SummariesResult = SummariesInfo | SummariesPrepared;

/** Files above this are hashed by size + head + tail instead of in full. */
const FULL_HASH_LIMIT_BYTES = 256 * 1024 * 1024;
const SAMPLE_BYTES = 8 * 1024 * 1024;

function toHex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A transcript's content hash (main file). */
async function computeContentHash(
  source: ByteSource,
): Promise<{ hash: string; kind: SummariesInfo['hashKind'] }> {
  if (source.sizeBytes <= FULL_HASH_LIMIT_BYTES) {
    // Sources return plain (not shared) buffers; the cast only narrows the DOM typing.
    const bytes = (await source.read(0, source.sizeBytes)) as Uint8Array<ArrayBuffer>;
    return { hash: toHex(await crypto.subtle.digest('SHA-256', bytes)), kind: 'sha256' };
  }
  const head = await source.read(0, SAMPLE_BYTES);
  const tail = await source.read(source.sizeBytes - SAMPLE_BYTES, SAMPLE_BYTES);
  const size = new TextEncoder().encode(String(source.sizeBytes));
  const joined = new Uint8Array(size.length + head.length + tail.length);
  joined.set(size, 0);
  joined.set(head, size.length);
  joined.set(tail, size.length + head.length);
  return { hash: toHex(await crypto.subtle.digest('SHA-256', joined)), kind: 'sha256-sampled' };
}

/** The transcript's identity, its compaction points (the main thread's, the subagents') and main API calls. */
export async function getSummariesInfo(session: Session, sources: ByteSource[]): Promise<SummariesInfo> {
  const mainIndex = session.files.find((f) => f.role === 'main')?.index ?? 0;
  const { hash, kind } = await computeContentHash(sources[mainIndex]!);
  // A summary there is to read (a remote Codex compaction's is encrypted).
  const hasSummary = async (at: number | undefined) =>
    at !== undefined && readSummaryText(session, at, await readEntryText(sources, session, at)) !== undefined;
  const compactions: SummariesInfo['compactions'] = [];
  for (const { compactionIndex, compaction } of getMainCompactions(session)) {
    compactions.push({
      compactionIndex,
      uuid: compaction.uuid,
      trigger: compaction.trigger,
      line: compaction.line,
      preTokens: compaction.preTokens,
      apiCallBefore: compaction.apiCallBefore,
      hasSummary: await hasSummary(compaction.summaryEntryIndex),
    });
  }
  const subagentCompactions: SummariesInfo['subagentCompactions'] = [];
  for (const { compactionIndex, compaction } of getSubagentCompactions(session)) {
    const file = session.files[compaction.fileIndex];
    const place = getThreadPlace(session, compaction);
    subagentCompactions.push({
      compactionIndex,
      uuid: compaction.uuid,
      trigger: compaction.trigger,
      line: compaction.line,
      preTokens: compaction.preTokens,
      hasSummary: await hasSummary(compaction.summaryEntryIndex),
      subagent: {
        id: file?.agentId ?? file?.name ?? `file ${compaction.fileIndex}`,
        ...(file?.agentType === undefined ? {} : { type: file.agentType }),
        ...(file?.agentDescription === undefined ? {} : { description: file.agentDescription }),
      },
      index: place.index,
      total: place.total,
    });
  }
  return {
    op: 'info',
    contentHash: hash,
    hashKind: kind,
    name: session.files[mainIndex]?.name ?? 'transcript',
    compactions,
    subagentCompactions,
    apiCalls: session.apiCalls
      .filter((call) => {
        const entry = session.entries[call.firstEntryIndex];
        return entry !== undefined && isMainThreadEntry(session, entry);
      })
      .map((call) => ({ index: call.index, contextTokens: call.contextTokens })),
    agentPresetId: getAgentPresetId(getDialectInfo(session.format)?.defaultStrategyId),
  };
}

/** The exact summarizer request at a point, with the summary the log recorded there. */
export async function prepareSummaryAt(
  session: Session,
  sources: ByteSource[],
  point: CompactionPoint,
  settings: PromptSettings,
  signal?: AbortSignal,
): Promise<SummariesPrepared> {
  const prepared = await prepareSummary(session, sources, point, settings, signal);
  const compaction =
    prepared.span.compactionIndex === undefined
      ? undefined
      : session.compactions[prepared.span.compactionIndex];
  let recordedContinuation: string | undefined;
  if (compaction?.summaryEntryIndex !== undefined) {
    recordedContinuation = readSummaryText(
      session,
      compaction.summaryEntryIndex,
      await readEntryText(sources, session, compaction.summaryEntryIndex),
    );
    // The recorded summarizer sends this text on: masked like the request.
    if (recordedContinuation !== undefined && settings.redact)
      recordedContinuation = maskText(recordedContinuation, settings.redact);
  }
  return {
    op: 'prepare',
    ...prepared,
    recordedContinuation,
    ...(compaction ? { recordedFigures: getRecordedCallFigures(compaction) } : {}),
  };
}

/** Runs one Summaries operation on a loaded session. */
export async function handleSummariesOp(
  session: Session,
  sources: ByteSource[],
  request: SummariesOp,
  signal?: AbortSignal,
): Promise<SummariesResult> {
  return request.op === 'info'
    ? getSummariesInfo(session, sources)
    : prepareSummaryAt(session, sources, request.point, request.settings, signal);
}
