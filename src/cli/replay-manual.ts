import type { PreparedReplay } from '../engine/simulation/prepared';
import type { ManualCompactionRequest } from '../engine/strategies/types';

// `compactlab replay --compact-at N [--partial up-to|from --pivot M]`: manual compactions
// (Claude Code's `/compact`, full or partial, docs/sources.md#cc-five-mechanisms, #cc-prompt-2) asked for on the command line. Kept apart from replay.ts so the
// strategy flags there and these stay separate.
//
// N is the 1-based API call number the replay dump prints ("event 1 after API call N"); M is the
// 1-based entry number the app shows ("entry M", query/numbering.ts), or an entry's uuid. Each
// `--partial` / `--pivot` belongs to the `--compact-at` before it, so several can be given:
//   --compact-at 40 --compact-at 90 --partial from --pivot 312

export const MANUAL_OPTIONS = {
  'compact-at': { type: 'string', multiple: true },
  partial: { type: 'string', multiple: true },
  pivot: { type: 'string', multiple: true },
} as const;

export const MANUAL_USAGE = `      --compact-at N [--partial up-to|from --pivot M]  a manual /compact after API call N (as the
      dump numbers them): full, or partial around entry M (its number in the app, or its uuid):
      up-to summarizes what precedes M and keeps M onward, from keeps what precedes M and
      summarizes M onward (Prompt 2). Repeat for several; --partial/--pivot go with the
      --compact-at before them.`;

interface ArgToken {
  kind: string;
  name?: string;
  value?: string;
}

/**
 * The manual compactions the arguments ask for, in the order given; a string is the error.
 * `tokens` are `parseArgs`'s tokens (the order of the flags decides which call a pivot belongs to).
 */
export function parseManualArgs(
  tokens: readonly ArgToken[],
  prepared: PreparedReplay,
): ManualCompactionRequest[] | string {
  const requests: ManualCompactionRequest[] = [];
  const { session, calls } = prepared;
  const mainCalls = new Set(calls);
  for (const t of tokens) {
    if (t.kind !== 'option' || !t.name || !(t.name in MANUAL_OPTIONS)) continue;
    const value = (t.value ?? '').trim();
    if (t.name === 'compact-at') {
      if (!/^\d+$/.test(value) || Number(value) < 1)
        return `--compact-at expects an API call number from 1, got "${value}"`;
      const index = Number(value) - 1;
      if (index >= session.apiCalls.length)
        return `--compact-at ${value}: the transcript has ${session.apiCalls.length} API calls`;
      if (!mainCalls.has(index))
        return `--compact-at ${value}: API call ${value} is a subagent's or a side call, not the main conversation's (the dump numbers main calls as "after API call N")`;
      requests.push({ afterApiCall: index, mechanism: 'full' });
      continue;
    }
    const last = requests[requests.length - 1];
    if (!last) return `--${t.name} goes after the --compact-at it belongs to`;
    if (t.name === 'partial') {
      if (value !== 'up-to' && value !== 'from') return `--partial is up-to or from, got "${value}"`;
      last.mechanism = 'partial';
      last.direction = value;
    } else {
      const entry = parsePivot(value, prepared);
      if (typeof entry === 'string') return `--pivot ${value}: ${entry}`;
      last.mechanism = 'partial';
      last.direction ??= 'up-to';
      last.pivotEntryIndex = entry;
    }
  }
  for (const r of requests) {
    if (r.mechanism === 'partial' && r.pivotEntryIndex === undefined)
      return `--partial at API call ${r.afterApiCall + 1} needs --pivot <entry>`;
    if (r.pivotEntryIndex !== undefined) {
      const problem = checkPivot(r, prepared);
      if (problem) return problem;
    }
  }
  return requests;
}

/** An entry number (1-based) or uuid → entry index; a string is the error. */
function parsePivot(value: string, prepared: PreparedReplay): number | string {
  const { entries } = prepared.session;
  if (/^\d+$/.test(value)) {
    const index = Number(value) - 1;
    if (index < 0 || index >= entries.length) return `the transcript has entries 1 to ${entries.length}`;
    return index;
  }
  const index = entries.findIndex((e) => e.uuid === value);
  return index >= 0 ? index : 'no entry has this number or uuid';
}

/** A pivot the engine can cut at: a main-conversation message before the compaction's boundary. */
function checkPivot(request: ManualCompactionRequest, prepared: PreparedReplay): string | undefined {
  const { calls, callPos, posOfEntry } = prepared;
  const k = calls.indexOf(request.afterApiCall);
  const pos = posOfEntry[request.pivotEntryIndex!] ?? -1;
  const where = `--pivot ${request.pivotEntryIndex! + 1}`;
  if (pos < 0)
    return `${where}: entry ${request.pivotEntryIndex! + 1} is not a message of the main conversation's context (a subagent's, a system record or a compaction artifact)`;
  if (pos >= callPos[k + 1]!)
    return `${where}: entry ${request.pivotEntryIndex! + 1} comes after API call ${request.afterApiCall + 1}; a pivot is a message the compaction sees`;
  return undefined;
}
