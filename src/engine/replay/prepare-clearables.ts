import {
  CLEARABLE_DOCUMENT,
  CLEARABLE_IMAGE,
  CLEARABLE_THINKING,
  type Clearables,
} from '../simulation/prepared';
import { estimateTextTokens, TOKENS_PER_IMAGE } from '../tokens/estimate';
import type { Block, Entry, Session } from '../types';
import type { CallAxis } from './prepare-call-axis';

// Phase 3 of `prepareReplay`: the clearable items, every tool result (of any tool: strategies
// pick theirs), every image or document in a user message and every thinking block of an
// assistant message, in context order, each with the assistant turn it belongs to. Their token
// shares are filled by attribution.

export interface ClearableItems {
  clearables: Clearables;
  toolNames: string[];
  /** Per context position (length n+1): the first clearable item of its entry. */
  firstClearable: Int32Array;
}

function toolResultEstimate(block: Extract<Block, { kind: 'tool-result' }>): number {
  return estimateTextTokens(block.chars) + block.images * TOKENS_PER_IMAGE;
}

/** A prompt opens an assistant turn: a user message of its own, not tool results or injected context. */
function isPrompt(entry: Entry): boolean {
  return (
    entry.kind === 'user' &&
    !entry.isMeta &&
    !entry.isCompactSummary &&
    entry.blocks.length > 0 &&
    !entry.blocks.some((b) => b.kind === 'tool-result')
  );
}

/** The clearable items of the context entries, with their call order. */
export function getClearables(session: Session, axis: CallAxis): ClearableItems {
  const { entries } = session;
  const { ctxEntry, posOfEntry } = axis;
  const m = ctxEntry.length;
  const toolNames: string[] = [];
  const toolIndex = new Map<string, number>();
  const cPos: number[] = [];
  const cEst: number[] = [];
  const cTool: number[] = [];
  const cUse: number[] = [];
  const cTurn: number[] = [];
  const ids: string[] = [];
  const firstClearable = new Int32Array(m + 1);
  let turn = 0;
  for (let p = 0; p < m; p++) {
    firstClearable[p] = cPos.length;
    const entry = entries[ctxEntry[p]!]!;
    if (isPrompt(entry)) turn++;
    if (entry.kind === 'assistant') {
      let thinking = 0;
      for (const block of entry.blocks) {
        if (block.kind !== 'thinking') continue;
        cPos.push(p);
        cEst.push(estimateTextTokens(block.chars));
        cTool.push(CLEARABLE_THINKING);
        cUse.push(-1);
        cTurn.push(turn);
        ids.push(`${entry.uuid ?? `#${entry.index}`}:thinking:${thinking++}`);
      }
      continue;
    }
    if (entry.kind !== 'user') continue;
    let media = 0;
    for (const block of entry.blocks) {
      if (block.kind === 'tool-result') {
        const useEntry = session.toolUseEntry.get(block.toolUseId);
        let name = '(unknown)';
        if (useEntry !== undefined) {
          const use = entries[useEntry]!.blocks.find(
            (b) => b.kind === 'tool-use' && b.id === block.toolUseId,
          );
          if (use?.kind === 'tool-use') name = use.name;
        }
        let ti = toolIndex.get(name);
        if (ti === undefined) {
          ti = toolNames.length;
          toolNames.push(name);
          toolIndex.set(name, ti);
        }
        cPos.push(p);
        cEst.push(toolResultEstimate(block));
        cTool.push(ti);
        cUse.push(useEntry === undefined ? -1 : posOfEntry[useEntry]!);
        cTurn.push(turn);
        ids.push(block.toolUseId);
      } else if (block.kind === 'image' || block.kind === 'document') {
        cPos.push(p);
        cEst.push(TOKENS_PER_IMAGE);
        cTool.push(block.kind === 'image' ? CLEARABLE_IMAGE : CLEARABLE_DOCUMENT);
        cUse.push(-1);
        cTurn.push(turn);
        ids.push(`${entry.uuid ?? `#${entry.index}`}:${block.kind}:${media++}`);
      }
    }
  }
  firstClearable[m] = cPos.length;
  const cCount = cPos.length;
  // Call order: by the position of the tool_use (an image by its own), ties by result. Parallel
  // calls' results can arrive out of order; microcompact counts back in call order.
  const keys = cPos.map((p, i) => (cUse[i]! >= 0 ? cUse[i]! : p));
  const order = Array.from({ length: cCount }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
  const clearables: Clearables = {
    pos: Int32Array.from(cPos),
    estimate: Float64Array.from(cEst),
    tokens: new Float64Array(cCount),
    tool: Int32Array.from(cTool),
    turn: Int32Array.from(cTurn),
    usePos: Int32Array.from(cUse),
    ids,
    indexById: new Map(ids.map((id, i) => [id, i])),
    order: Int32Array.from(order),
    orderKey: Int32Array.from(order.map((i) => keys[i]!)),
  };
  return { clearables, toolNames, firstClearable };
}
