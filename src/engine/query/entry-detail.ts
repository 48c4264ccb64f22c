import { estimateBlockTokens, estimateEntryTokens, estimateWithSafety } from '../tokens/estimate';
import type { Block, Entry, Session, TokenCount, Usage } from '../types';
import { getCallLanes } from './call-lanes';
import { getCompactionByEntry } from './compaction-index';
import { getDisplayOrder } from './display-order';
import { type FilterKind, getPrimaryKind } from './entry-kinds';
import { getToolNameForResult } from './row-filter';
import { getResultBlockStatus, getToolResultInfo, type ToolStatus } from './tool-status';

export interface BlockDetail {
  block: Block;
  /** Claude Code's estimate of this block (before the ×4/3 safety multiplier). */
  estimatedTokens: TokenCount;
  /** For tool_use: its result; for tool_result: its call. */
  pair?: {
    entryIndex?: number;
    toolName?: string;
    status: ToolStatus;
    /** tool_use: size of the result; tool_result: input preview of the call. */
    resultChars?: number;
    inputPreview?: string;
  };
}

interface ApiCallDetail {
  index: number;
  model: string;
  usage: Usage;
  contextTokens: TokenCount;
  /** Change from the previous call of the same lane (main conversation or one subagent). */
  deltaTokens?: TokenCount;
  isMain: boolean;
}

export interface EntryDetail {
  entry: Entry;
  fileName: string;
  kind: FilterKind;
  depth: number;
  blocks: BlockDetail[];
  /** Sum of block estimates, before and after Claude Code's ×4/3. */
  estimatedTokens: TokenCount;
  estimatedTokensWithSafety: TokenCount;
  apiCall?: ApiCallDetail;
  compactionIndex?: number;
  /** Set when the entry sits in a subagent linked to a Task/Agent call. */
  spawnerEntryIndex?: number;
  /** The subagent's type from its `.meta.json` ("Explore", "Plan", …), when its file has one. */
  agentType?: string;
}

function getBlockPair(session: Session, block: Block): BlockDetail['pair'] {
  if (block.kind === 'tool-use') {
    const info = getToolResultInfo(session, block.id);
    return {
      entryIndex: info.entryIndex,
      toolName: block.name,
      status: info.status,
      resultChars: info.chars,
    };
  }
  if (block.kind === 'tool-result') {
    const entryIndex = session.toolUseEntry.get(block.toolUseId);
    let inputPreview: string | undefined;
    if (entryIndex !== undefined) {
      for (const b of session.entries[entryIndex]?.blocks ?? []) {
        if (b.kind === 'tool-use' && b.id === block.toolUseId) inputPreview = b.inputPreview;
      }
    }
    return {
      entryIndex,
      toolName: getToolNameForResult(session, block.toolUseId),
      status: getResultBlockStatus(session, block),
      inputPreview,
    };
  }
  return undefined;
}

/** Everything the detail pane shows for one entry (text is the parser's preview). */
export function getEntryDetail(session: Session, entryIndex: number): EntryDetail {
  const entry = session.entries[entryIndex];
  if (!entry) throw new RangeError(`No entry ${entryIndex} (session has ${session.entries.length})`);
  let apiCall: ApiCallDetail | undefined;
  if (entry.apiCallIndex !== undefined) {
    const call = session.apiCalls[entry.apiCallIndex];
    if (call) {
      const lanes = getCallLanes(session);
      const previous = lanes.previousInLane[call.index] ?? -1;
      apiCall = {
        index: call.index,
        model: call.model,
        usage: call.usage,
        contextTokens: call.contextTokens,
        deltaTokens:
          previous >= 0 ? call.contextTokens - session.apiCalls[previous]!.contextTokens : undefined,
        isMain: lanes.isMain[call.index] === 1,
      };
    }
  }
  const spawnedBy =
    entry.spawnedBy ?? session.sidechains.find((s) => s.entryIndices.includes(entryIndex))?.spawnedBy;
  const estimatedTokens = estimateEntryTokens(entry);
  return {
    entry,
    fileName: session.files[entry.fileIndex]?.name ?? `file ${entry.fileIndex}`,
    kind: getPrimaryKind(entry),
    depth: getDisplayOrder(session).depthByEntry[entryIndex] ?? 0,
    blocks: entry.blocks.map((block) => ({
      block,
      estimatedTokens: estimateBlockTokens(block),
      pair: getBlockPair(session, block),
    })),
    estimatedTokens,
    estimatedTokensWithSafety: estimateWithSafety(estimatedTokens),
    apiCall,
    compactionIndex: getCompactionByEntry(session).get(entryIndex),
    spawnerEntryIndex: spawnedBy === undefined ? undefined : session.toolUseEntry.get(spawnedBy),
    agentType: session.files[entry.fileIndex]?.agentType,
  };
}
