import type { PreparedReplay } from '../../simulation/prepared';
import type { TokenCount } from '../../types';
import { getCallModelKey, getCallModels } from '../call-models';
import type { SessionInfo } from '../types';
import type { ClineKnobs } from './knobs';

// The window Cline checks each request against: `getContextWindowInfo(api)` reads the model of
// the API handler the request is about to be sent with (cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/core/context/context-management/context-window-utils.ts:10-34,
// called by ContextManager.getNewContextMessagesAndMetadata before each request), so a task that
// switches models mid-task is checked against each model's own window, not the first one's (as
// pi does: strategies/pi/model-windows.ts). A model Cline's rule does not place takes the
// `contextWindow` knob: the session's window (stated, else inferred from the log): ours.

const OPENAI_DEFAULTS =
  'cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/shared/api.ts:1324-1326, src/core/api/providers/openai.ts:185';

/** Cline's window for models when the log states none (context-window-utils.ts, its providers). */
export function getClineModelWindow(
  models: readonly string[],
  providers: readonly string[] | undefined,
): { tokens: TokenCount; why: string } | undefined {
  // The OpenAI-compatible provider ("openai") uses the model info the person set for it, else
  // these defaults, whatever the model id names: an id like "claude_4_5_opus" through it has a
  // 128,000-token window unless they set another (the log does not say). A real task through it
  // truncated each time the context crossed 98,000 (128,000 − 30,000).
  if (providers?.length && providers.every((p) => p === 'openai'))
    return {
      tokens: 128_000,
      why: `through Cline's OpenAI-compatible provider, whose window is the person's setting, else 128,000 (${OPENAI_DEFAULTS})`,
    };
  const m = models.join(' ').toLowerCase();
  if (/deepseek/.test(m))
    return { tokens: 64_000, why: 'a DeepSeek model: 64,000 (context-window-utils.ts)' };
  if (/claude/.test(m)) return { tokens: 200_000, why: 'a Claude model: 200,000' };
  return undefined;
}

/** A call's model's window, or the session's (`contextWindow`) when Cline's rule does not place it. */
function windowOf(model: string, provider: string | undefined, fallback: TokenCount): TokenCount {
  return getClineModelWindow([model], provider !== undefined ? [provider] : undefined)?.tokens ?? fallback;
}

/** Whether the log's calls ran on models of different windows (the knobs turn `windowPerModel` on). */
export function hasClineModelSwitch(info: SessionInfo, contextWindow: TokenCount): boolean {
  const windows = new Set((info.callModels ?? []).map((r) => windowOf(r.model, r.provider, contextWindow)));
  return windows.size > 1;
}

/** The window each replayed call `k` is checked against (the `contextWindow` knob for all when `windowPerModel` is off). */
export function getClineCallWindows(prepared: PreparedReplay, knobs: ClineKnobs): Float64Array {
  const { session, calls } = prepared;
  const out = new Float64Array(calls.length).fill(knobs.contextWindow);
  if (!knobs.windowPerModel) return out;
  const windows = new Map<string, TokenCount>();
  for (const row of getCallModels(prepared))
    windows.set(getCallModelKey(row), windowOf(row.model, row.provider, knobs.contextWindow));
  for (let k = 0; k < calls.length; k++) out[k] = windows.get(getCallModelKey(session.apiCalls[calls[k]!]!))!;
  return out;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** The note of a task that switches models: the window of each of its models. */
export function describeClineModelWindows(info: SessionInfo, contextWindow: TokenCount): string[] {
  const rows = info.callModels ?? [];
  if (!hasClineModelSwitch(info, contextWindow)) return [];
  return [
    `The task switches models: each request is checked against the window of the model it is sent to, as Cline reads the model in use before each request: ${rows
      .map((r) => `${r.model} ${fmt(windowOf(r.model, r.provider, contextWindow))}`)
      .join(', ')}. The chart draws each window's lines over the calls sent with its model.`,
  ];
}
