import type { Block, Session } from '../types';

/** How a tool call ended, as the transcript row shows it. */
export type ToolStatus = 'ok' | 'error' | 'cleared' | 'persisted' | 'no-result';

interface ToolResultInfo {
  status: ToolStatus;
  entryIndex?: number;
  chars: number;
  images: number;
}

type ToolResultBlock = Extract<Block, { kind: 'tool-result' }>;

function findResultBlock(
  session: Session,
  toolUseId: string,
): { block: ToolResultBlock; entryIndex: number } | undefined {
  const entryIndex = session.toolResultEntry.get(toolUseId);
  if (entryIndex === undefined) return undefined;
  for (const block of session.entries[entryIndex]?.blocks ?? []) {
    if (block.kind === 'tool-result' && block.toolUseId === toolUseId) return { block, entryIndex };
  }
  return undefined;
}

/** Status of one result block: cleared (microcompact) wins, then error, then persisted. */
export function getResultBlockStatus(session: Session, block: ToolResultBlock): ToolStatus {
  if (session.cleared.has(block.toolUseId)) return 'cleared';
  if (block.isError) return 'error';
  if (block.persisted) return 'persisted';
  return 'ok';
}

/** The result paired with a tool_use id. */
export function getToolResultInfo(session: Session, toolUseId: string): ToolResultInfo {
  const found = findResultBlock(session, toolUseId);
  if (!found) {
    return { status: session.cleared.has(toolUseId) ? 'cleared' : 'no-result', chars: 0, images: 0 };
  }
  return {
    status: getResultBlockStatus(session, found.block),
    entryIndex: found.entryIndex,
    chars: found.block.chars,
    images: found.block.images,
  };
}
