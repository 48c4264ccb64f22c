import { HIDDEN_THINKING_LABELS } from './hidden-thinking';
import { at } from '../assert';
import { estimateEntryTokens, estimateWithSafety, TOKENS_PER_IMAGE } from '../tokens/estimate';
import { getCallContext } from './usage-coverage';
import type { Block, Entry, Session, TokenCount } from '../types';
import { getCompactionByEntry } from './compaction-index';
import { getDisplayOrder } from './display-order';
import { type FilterKind, getPrimaryKind } from './entry-kinds';
import { formatCount, toOneLine } from './format';
import { getToolNameForResult } from './row-filter';
import { getResultBlockStatus, getToolResultInfo, type ToolStatus } from './tool-status';

/** Characters of text a transcript row carries (rows are one line; the detail pane has more). */
export const ROW_TEXT_CHARS = 240;

/** One transcript row: small, plain, one line of text. */
export interface RowSummary {
  /** Position in the row index. */
  row: number;
  entryIndex: number;
  fileIndex: number;
  line: number;
  /** 0 = main conversation; 1+ = nested subagents. */
  depth: number;
  kind: FilterKind;
  timestampMs?: number;
  text: string;
  toolName?: string;
  toolStatus?: ToolStatus;
  /** Claude Code's estimate of the entry's content (chars/4, images 2,000), ×4/3. */
  estimatedTokens: TokenCount;
  /** Context size of the API call this assistant entry starts (first line of the response only). */
  contextTokens?: TokenCount;
  /** `contextTokens` is an estimate: the call recorded no usage (usage-coverage.ts). */
  contextEstimated?: boolean;
  isMeta: boolean;
  isError: boolean;
  isSynthetic: boolean;
  /** The entry records a request that brought back no answer (not an API call): the log's reason. */
  failedRequest?: string;
}

/** "[image · ~2,000 tok]"; several: "[3 images · ~6,000 tok]". */
export function formatImagePlaceholder(images: number, noun = 'image'): string {
  const label = images === 1 ? noun : `${images} ${noun}s`;
  return `[${label} · ~${formatCount(images * TOKENS_PER_IMAGE)} tok]`;
}

/** Input fields that say what a call is about, in order of preference (Task, Grep, WebFetch, …). */
const DESCRIPTIVE_INPUT_KEYS = ['description', 'pattern', 'query', 'url', 'skill', 'prompt'] as const;

/**
 * A short description of a tool call's input. Works on the (possibly truncated) JSON preview, so
 * it reads string fields with a pattern instead of parsing.
 */
export function describeToolInput(block: Extract<Block, { kind: 'tool-use' }>): string {
  if (block.command !== undefined) return block.command;
  if (block.filePath !== undefined) return block.filePath;
  for (const key of DESCRIPTIVE_INPUT_KEYS) {
    const match = new RegExp(`"${key}":"((?:[^"\\\\]|\\\\.)*)`).exec(block.inputPreview);
    if (match?.[1]) {
      try {
        return JSON.parse(`"${match[1]}"`) as string;
      } catch {
        return match[1];
      }
    }
  }
  return block.inputPreview;
}

function describeToolUse(block: Extract<Block, { kind: 'tool-use' }>): string {
  return `${block.name} ${toOneLine(describeToolInput(block), ROW_TEXT_CHARS)}`;
}

function describeBlock(session: Session, block: Block): string {
  switch (block.kind) {
    case 'text':
      return block.text;
    case 'thinking':
      if (block.hidden) return `(${HIDDEN_THINKING_LABELS[block.hidden]})`;
      return block.text === '' ? '(empty thinking)' : block.text;
    case 'tool-use':
      return describeToolUse(block);
    case 'tool-result': {
      const name = getToolNameForResult(session, block.toolUseId) ?? 'tool';
      const images = block.images > 0 ? ` ${formatImagePlaceholder(block.images)}` : '';
      return `↳ ${name}: ${block.text}${images}`;
    }
    case 'image':
      return formatImagePlaceholder(1);
    case 'document':
      return formatImagePlaceholder(1, 'document');
    case 'other':
      return `[${block.type}]`;
  }
}

function describeEntry(session: Session, entry: Entry): string {
  const compactionIndex = getCompactionByEntry(session).get(entry.index);
  if (compactionIndex !== undefined) {
    const c = at(session.compactions, compactionIndex);
    if (c.kind === 'microcompact') {
      const saved = c.tokensSaved === undefined ? '' : ` · saved ${formatCount(c.tokensSaved)} tok`;
      const cleared = c.clearedToolIds?.length ?? 0;
      return `Microcompacted (${c.trigger})${saved} · ${cleared} tool result${cleared === 1 ? '' : 's'} cleared`;
    }
    const pre = c.preTokens === undefined ? '?' : formatCount(c.preTokens);
    const post = c.postTokens === undefined ? '?' : formatCount(c.postTokens);
    const range = c.deletedRange ? ` · history ${c.deletedRange[0]}–${c.deletedRange[1]} dropped` : '';
    return `${c.kind === 'truncate' ? 'Truncated' : 'Compacted'} (${c.trigger}) · ${pre} → ${post} tok${range}`;
  }
  if (entry.isCompactSummary) {
    const text = entry.blocks.map((b) => describeBlock(session, b)).join(' ');
    return `Summary: ${text}`;
  }
  if (entry.kind === 'user' || entry.kind === 'assistant') {
    const parts = entry.blocks.map((b) => describeBlock(session, b)).filter((t) => t !== '');
    if (parts.length > 0) return parts.join(' · ');
    return entry.summaryText ?? `(empty ${entry.kind} message)`;
  }
  const head = [entry.type || '(no type)', entry.subtype ?? entry.detailType].filter(Boolean).join(' · ');
  return entry.summaryText ? `${head}: ${entry.summaryText}` : head;
}

function getToolFields(session: Session, entry: Entry): Pick<RowSummary, 'toolName' | 'toolStatus'> {
  for (const block of entry.blocks) {
    if (block.kind === 'tool-use')
      return { toolName: block.name, toolStatus: getToolResultInfo(session, block.id).status };
    if (block.kind === 'tool-result') {
      return {
        toolName: getToolNameForResult(session, block.toolUseId),
        toolStatus: getResultBlockStatus(session, block),
      };
    }
  }
  return {};
}

/** One row for an entry at a given row position. */
export function getRowSummary(session: Session, entryIndex: number, row: number): RowSummary {
  const entry = at(session.entries, entryIndex);
  const { depthByEntry } = getDisplayOrder(session);
  const call = entry.apiCallIndex === undefined ? undefined : session.apiCalls[entry.apiCallIndex];
  return {
    row,
    entryIndex,
    fileIndex: entry.fileIndex,
    line: entry.line,
    depth: depthByEntry[entryIndex] ?? 0,
    kind: getPrimaryKind(entry),
    timestampMs: entry.timestampMs,
    text: toOneLine(describeEntry(session, entry), ROW_TEXT_CHARS),
    ...getToolFields(session, entry),
    estimatedTokens: estimateWithSafety(estimateEntryTokens(entry)),
    ...(call && call.firstEntryIndex === entryIndex ? getRowContext(session, call.index) : {}),
    isMeta: entry.isMeta,
    isError: entry.isApiError,
    isSynthetic: entry.isSynthetic,
    ...(entry.failedRequest ? { failedRequest: entry.failedRequest.reason } : {}),
  };
}

/** Rows `start … start+count-1` of a row index (clamped to its length). */
export function getRowPage(
  session: Session,
  indices: Int32Array,
  start: number,
  count: number,
): RowSummary[] {
  const end = Math.min(indices.length, Math.max(0, start) + Math.max(0, count));
  const rows: RowSummary[] = [];
  for (let row = Math.max(0, start); row < end; row++)
    rows.push(getRowSummary(session, at(indices, row), row));
  return rows;
}

function getRowContext(
  session: Session,
  callIndex: number,
): Pick<RowSummary, 'contextTokens' | 'contextEstimated'> {
  const { tokens, estimated } = getCallContext(session, callIndex);
  return estimated ? { contextTokens: tokens, contextEstimated: true } : { contextTokens: tokens };
}
