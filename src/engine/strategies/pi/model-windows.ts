import {
  getPiModelWindow,
  isUserDefinedPiModel,
  PI_UNLISTED_MODEL_WINDOW,
} from '../../parse/dialects/pi/model-window';
import type { PreparedReplay } from '../../simulation/prepared';
import type { TokenCount } from '../../types';
import { type CallModel, getCallModelKey, getCallModels } from '../call-models';
import type { SessionInfo } from '../types';
import type { PiKnobs } from './descriptor';

// The window pi checks each turn against: `_checkCompaction` reads `this.model.contextWindow`, the
// model selected at the check (badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/agent-session.ts:1749),
// after a run (:509, the run's model) and before a prompt (:948-951, the model the user then has),
// so a session that switches models is checked against each model's own window, not the largest.
// The window is pi's registry's for the model under the provider its responses name
// (parse/dialects/pi/model-window). A model of a provider the registry lacks is one the user defines
// in ~/.pi/agent/models.json, 128,000 when the entry states no window (model-registry.ts:507),
// unless a call of it used more; a model missing under a listed provider is newer than the
// registry we read. Those, and a listed model a call of which used more than the registry's
// window (the user overrode it: model-registry.ts:209), take the `contextWindow` knob: the
// session's window (stated, else inferred from the log): ours.

/** A model's window, or why it is not the registry's. */
interface ModelWindow {
  tokens: TokenCount;
  /**
   * 'registry': pi's; 'unlisted': of a provider the registry lacks, pi's window for a model the
   * user defines; 'unknown': not in the registry otherwise, or one that used more than that;
   * 'overridden': a call used more than the registry's.
   */
  source: 'registry' | 'unlisted' | 'unknown' | 'overridden';
  registryTokens?: TokenCount;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function resolveWindow(
  row: CallModel,
  sessionProviders: readonly string[],
  fallback: TokenCount,
): ModelWindow {
  const providers = row.provider !== undefined ? [row.provider] : sessionProviders;
  const known = getPiModelWindow(row.model, providers);
  if (!known)
    return isUserDefinedPiModel(providers) && row.peakTokens <= PI_UNLISTED_MODEL_WINDOW
      ? { tokens: PI_UNLISTED_MODEL_WINDOW, source: 'unlisted' }
      : { tokens: fallback, source: 'unknown' };
  if (row.peakTokens > known.tokens)
    return { tokens: fallback, source: 'overridden', registryTokens: known.tokens };
  return { tokens: known.tokens, source: 'registry', registryTokens: known.tokens };
}

/** The window of each replayed call `k`'s model (the `contextWindow` knob for all when `windowPerModel` is off). */
export function getPiTurnWindows(prepared: PreparedReplay, knobs: PiKnobs): Float64Array {
  const { session, calls } = prepared;
  const out = new Float64Array(calls.length).fill(knobs.contextWindow);
  if (!knobs.windowPerModel) return out;
  const providers = session.meta.providers ?? [];
  const windows = new Map<string, TokenCount>();
  for (const row of getCallModels(prepared))
    windows.set(getCallModelKey(row), resolveWindow(row, providers, knobs.contextWindow).tokens);
  for (let k = 0; k < calls.length; k++) out[k] = windows.get(getCallModelKey(session.apiCalls[calls[k]!]!))!;
  return out;
}

/** The notes: each model's window when the log runs several, and what a model pi does not list was given. */
export function describePiModelWindows(info: SessionInfo, contextWindow: TokenCount): string[] {
  const rows = info.callModels ?? [];
  const notes: string[] = [];
  const name = (r: CallModel) => (r.provider ? `${r.provider}/${r.model}` : r.model);
  const resolved = rows.map((r) => ({ row: r, w: resolveWindow(r, info.providers ?? [], contextWindow) }));
  if (rows.length > 1)
    notes.push(
      `The log switches models: each turn is checked against the window of the model it ran on, as pi reads the selected model's contextWindow at each check (a run that ends just before a switch also against the next model's, checked before the next prompt): ${resolved
        .map(({ row, w }) => `${name(row)} ${fmt(w.tokens)}${w.source === 'registry' ? '' : ' (assumed)'}`)
        .join(', ')}.`,
    );
  for (const { row, w } of resolved) {
    // One model: the window note already says where its window comes from.
    if (w.source === 'unlisted' && rows.length > 1)
      notes.push(
        `${name(row)}: its provider is not in pi's model registry (models.generated.ts at 83378aad, 2026-03-15), so the user defined it in ~/.pi/agent/models.json, where a contextWindow left out is ${fmt(PI_UNLISTED_MODEL_WINDOW)} (model-registry.ts:507), and its calls stayed within it: its turns are checked against ${fmt(PI_UNLISTED_MODEL_WINDOW)} (the entry may state another).`,
      );
    else if (w.source === 'unknown')
      notes.push(
        `${name(row)} is not in pi's model registry (models.generated.ts at 83378aad, 2026-03-15): a later pi may list it, or the user defined it in ~/.pi/agent/models.json (where a contextWindow left out is 128,000, model-registry.ts:507). Its turns are checked against the session's window, ${fmt(contextWindow)} (ours: the window the registry or the log gives the session).`,
      );
    else if (w.source === 'overridden')
      notes.push(
        `${name(row)} used ${fmt(row.peakTokens)} tokens, more than the ${fmt(w.registryTokens!)} pi's registry gives it: the user overrode its window (models.json, model-registry.ts:209). Its turns are checked against the session's window, ${fmt(contextWindow)} (ours).`,
      );
  }
  return notes;
}
