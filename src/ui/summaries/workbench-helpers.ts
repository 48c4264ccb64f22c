import { useEffect, useState } from 'react';
import { toAnthropicParams } from '../../engine/summarize/anthropic';
import { BUILTIN_MODEL, RECORDED_MODEL } from '../../engine/summarize/model-ids';
import { toChatBody } from '../../engine/summarize/openai-compatible';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import type { CompactionPoint } from '../../engine/summarize/span';
import { getMessagesWithPrompt, type SummaryRequest } from '../../engine/summarize/types';
import type { SummarizerChoice } from './summaries-store';
import { formatOrdinal } from '../../engine/query/numbering';
import type { PresetFidelity } from '../../engine/prompts/types';

// The Summaries view's small helpers: a compaction point as a select value, the point to use,
// labels, the summarizer's model and the body it sends.

/** Delay before an edited prompt rebuilds the request preview. */
export const PREVIEW_DEBOUNCE_MS = 300;

export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function pointValue(point: CompactionPoint): string {
  return point.kind === 'compaction' ? `c:${point.compactionIndex}` : `a:${point.apiCallIndex}`;
}

export function parsePointValue(value: string): CompactionPoint {
  const n = Number(value.slice(2));
  return value.startsWith('c:')
    ? { kind: 'compaction', compactionIndex: n }
    : { kind: 'api-call', apiCallIndex: n };
}

/** The point to use: the chosen one if this transcript has it, else its last real compaction or last call. */
export function resolvePoint(
  info: SummariesInfo,
  point: CompactionPoint | undefined,
): CompactionPoint | undefined {
  if (point?.kind === 'compaction' && getRealCompaction(info, point.compactionIndex)) return point;
  if (point?.kind === 'api-call' && info.apiCalls.some((c) => c.index === point.apiCallIndex)) return point;
  const last = info.compactions.at(-1);
  if (last) return { kind: 'compaction', compactionIndex: last.compactionIndex };
  const call = info.apiCalls.at(-1);
  return call ? { kind: 'api-call', apiCallIndex: call.index } : undefined;
}

export const FIDELITY_LABELS: Record<PresetFidelity, string> = {
  verbatim: 'Verbatim',
  'verbatim-with-gaps': 'Verbatim where published, with gaps marked',
  'own-words': 'Our wording of a documented shape',
};

/** A real compaction of the transcript, the main thread's or a subagent's, by its index. */
export function getRealCompaction(
  info: SummariesInfo,
  compactionIndex: number,
): { preTokens?: number; hasSummary: boolean } | undefined {
  return (
    info.compactions.find((c) => c.compactionIndex === compactionIndex) ??
    info.subagentCompactions.find((c) => c.compactionIndex === compactionIndex)
  );
}

/** A subagent as the point picker names it: its type (the `.meta.json`'s) and its id. */
export function getSubagentLabel(subagent: SummariesInfo['subagentCompactions'][number]['subagent']): string {
  return `${subagent.type ?? 'Subagent'} ${subagent.id}`;
}

export function describePoint(info: SummariesInfo, point: CompactionPoint): string {
  if (point.kind === 'api-call') return `after ${formatOrdinal('api-call', point.apiCallIndex)}`;
  const sub = info.subagentCompactions.find((x) => x.compactionIndex === point.compactionIndex);
  if (sub)
    return `subagent ${getSubagentLabel(sub.subagent)}: ${formatOrdinal('compaction', sub.index, sub.total)} (${sub.trigger}) at line ${sub.line}`;
  const c = info.compactions.find((x) => x.compactionIndex === point.compactionIndex);
  return `${formatOrdinal('compaction', point.compactionIndex)}${c ? ` (${c.trigger}) at line ${c.line}` : ''}`;
}

/** The provider's exact token count of one request (by identity), or why it failed. */
export interface ExactCount {
  request: SummaryRequest;
  tokens?: number;
  error?: string;
}

export function modelFor(choice: SummarizerChoice, anthropicModel: string, openaiModel: string): string {
  switch (choice) {
    case 'anthropic':
      return anthropicModel;
    case 'openai':
      return openaiModel;
    case 'recorded':
      return RECORDED_MODEL;
    default:
      return BUILTIN_MODEL;
  }
}

/** The body as it goes on the wire for the chosen summarizer. */
export function getWireBody(choice: SummarizerChoice, request: SummaryRequest): unknown {
  if (choice === 'anthropic') return toAnthropicParams(request);
  if (choice === 'openai') return toChatBody(request);
  return { system: request.system, messages: getMessagesWithPrompt(request) };
}
