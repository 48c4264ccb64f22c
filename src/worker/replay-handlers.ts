// The worker side of the replay: prepares a session once (kept beside it), re-runs a strategy
// for each knob change (or for each value of a swept knob), and builds the summarizer request of an event on demand. Only plain data
// and transferable typed arrays go back (protocol.ts, `ReplayOp`).

import { buildCompactionRequest } from '../engine/compact/build-request';
import { followBranch } from '../engine/parse/branches';
import type { ByteSource } from '../engine/parse/source';
import { computeReplay } from '../engine/replay/compute-replay';
import { type PreparedReplay, prepareReplay } from '../engine/replay/prepare';
import { computeSweep, type SweepProgress } from '../engine/replay/sweep';
import { getReplayTransferables } from '../engine/replay/types';
import { getStrategy, STRATEGIES } from '../engine/strategies/registry';
import { getSessionInfo } from '../engine/strategies/types';
import type { Session } from '../engine/types';
import type { ReplayOp, ReplayReply } from './protocol';

const prepared = new WeakMap<Session, PreparedReplay>();

function getPrepared(session: Session): PreparedReplay {
  let p = prepared.get(session);
  if (!p) {
    p = prepareReplay(session);
    prepared.set(session, p);
  }
  return p;
}

/** Text that stands in for a summary the replay simulated but did not write. */
function describeSimulatedSummary(tokens: number): string {
  return `[Simulated summary of a previous compaction: about ${tokens.toLocaleString('en-US')} tokens. The replay sizes summaries without writing them; a summarizer can fill this in.]`;
}

/** Handles one replay operation; `transfer` lists the buffers to move. */
export async function handleReplayOp(
  session: Session,
  sources: ByteSource[],
  op: ReplayOp,
  signal: AbortSignal,
  onProgress?: (progress: SweepProgress) => void,
): Promise<{ result: ReplayReply; transfer?: Transferable[] }> {
  switch (op.op) {
    case 'setup': {
      const p = getPrepared(session);
      const strategy = getStrategy(op.strategyId);
      const { knobs, notes } = strategy.getSessionKnobs(getSessionInfo(p));
      return {
        result: {
          op: 'setup',
          strategies: STRATEGIES.map(({ id, label, description }) => ({ id, label, description })),
          strategyId: strategy.id,
          knobSpecs: [...strategy.knobSpecs],
          defaultKnobs: { ...strategy.defaultKnobs },
          sessionKnobs: knobs,
          notes,
          prepareMs: p.prepareMs,
        },
      };
    }
    case 'run': {
      const p = getPrepared(followBranch(session, op.branchId ?? 0));
      signal.throwIfAborted();
      const result = computeReplay(p, op.strategyId, op.knobs, {
        summaryModel: op.summaryModel,
        manual: op.manual,
        suppliedSummaryTokens: op.suppliedSummaryTokens,
      });
      // Entries whose tool results the replay cleared, for the transcript list.
      const clearedEntries: Record<number, number> = {};
      for (const [id, eventIndex] of Object.entries(result.clearedToolIds)) {
        const entryIndex = session.toolResultEntry.get(id);
        if (entryIndex !== undefined) clearedEntries[entryIndex] = eventIndex;
      }
      return { result: { op: 'run', result, clearedEntries }, transfer: getReplayTransferables(result) };
    }
    case 'sweep': {
      const p = getPrepared(session);
      const result = await computeSweep(p, op.strategyId, op.knobs, op.range, {
        summaryModel: op.summaryModel,
        manual: op.manual,
        suppliedSummaryTokens: op.suppliedSummaryTokens,
        signal,
        onProgress,
      });
      return { result: { op: 'sweep', result } };
    }
    case 'request': {
      const spec = op.spec;
      const request = await buildCompactionRequest(session, sources, {
        uptoEntryIndex: spec.uptoEntryIndex,
        fromEntryIndex: spec.fromEntryIndex,
        variant: spec.variant,
        keepFromEntryIndex: spec.keepFromEntryIndex,
        customInstructions: spec.customInstructions,
        previousSummaryText:
          spec.previousSummaryTokens === undefined
            ? undefined
            : describeSimulatedSummary(spec.previousSummaryTokens),
        excludeEntryIndices: spec.excludeEntryIndices,
        elideBase64: op.elideBase64,
        signal,
      });
      return { result: { op: 'request', request } };
    }
  }
}
