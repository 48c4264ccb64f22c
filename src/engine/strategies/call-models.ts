import type { PreparedReplay } from '../simulation/prepared';
import type { TokenCount } from '../types';

// What `getSessionInfo` (types.ts) reads per call of a prepared session: the models the calls ran
// on, and the log's compactions against the prompts recorded before them.

/** Calls of one model through one provider. */
export interface CallModel {
  model: string;
  provider?: string;
  calls: number;
  /** The highest usage (context + output) of those calls. */
  peakTokens: TokenCount;
}

/** The key `getCallModels` groups a call under: its provider and model. */
export const getCallModelKey = (call: { model: string; provider?: string }): string =>
  `${call.provider ?? ''}\u0000${call.model}`;

/** The main thread's calls grouped by model and provider. */
export function getCallModels(prepared: PreparedReplay): CallModel[] {
  const { session, calls, recorded, output } = prepared;
  const byKey = new Map<string, CallModel>();
  for (let k = 0; k < calls.length; k++) {
    const call = session.apiCalls[calls[k]!]!;
    const key = getCallModelKey(call);
    let row = byKey.get(key);
    if (!row) {
      row = {
        model: call.model,
        ...(call.provider !== undefined ? { provider: call.provider } : {}),
        calls: 0,
        peakTokens: 0,
      };
      byKey.set(key, row);
    }
    row.calls++;
    row.peakTokens = Math.max(row.peakTokens, (recorded[k] ?? 0) + (output[k] ?? 0));
  }
  return [...byKey.values()];
}

/** A compaction of the log's main thread and what the log records before it. */
export interface LoggedCompaction {
  trigger: string;
  /** The call it follows (−1: before the first). */
  afterCall: number;
  /** The agent's own count before it, where the log states one. */
  preTokens?: TokenCount;
  /** The largest recorded prompt (input + cache) of the calls since the previous compaction, up to `afterCall`. */
  peakPromptBefore: TokenCount;
}

/** The log's compactions (not microcompactions) with the largest prompt recorded before each. */
export function getLoggedCompactions(prepared: PreparedReplay): LoggedCompaction[] {
  const out: LoggedCompaction[] = [];
  let from = 0;
  for (const r of prepared.real) {
    if (r.kind !== 'compact') continue;
    let peak = 0;
    for (let k = Math.max(0, from); k <= r.afterCall && k < prepared.recorded.length; k++)
      peak = Math.max(peak, prepared.recorded[k]!);
    out.push({
      trigger: r.trigger,
      afterCall: r.afterCall,
      ...(r.preTokens !== undefined ? { preTokens: r.preTokens } : {}),
      peakPromptBefore: peak,
    });
    from = r.afterCall + 1;
  }
  return out;
}
