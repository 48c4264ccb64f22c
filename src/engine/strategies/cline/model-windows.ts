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

/**
 * The Claude models Cline offers with a 1M context: its classic extension lists a 1M model of its
 * own beside the 200,000 one (`<id>:1m`, contextWindow 1_000_000:
 * cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/shared/api.ts:178-180, 201-203, 235-237,
 * 258-260); its SDK's catalog gives these the 1,000,000 window itself (the "anthropic" provider:
 * cline/cline@21cb8d2525bcedf1f4b6890b27a74a14fe7451e4:sdk/packages/llms/src/catalog/catalog.generated.ts:12826,
 * 12861, 12899, 12934, 12969, 13004, 13043, 13218, 13248).
 */
const CLINE_1M_MODELS = new Set([
  'claude-sonnet-4-20250514',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
  'claude-sonnet-4-6',
  'claude-opus-4-6',
  'claude-opus-4-7',
  'claude-opus-4-8',
  'claude-opus-5',
  'claude-sonnet-5',
  'claude-fable-5',
]);
const CLINE_1M_WINDOW = 1_000_000;

/** Cline's window for models when the log states none (context-window-utils.ts, its providers). */
export function getClineModelWindow(
  models: readonly string[],
  providers: readonly string[] | undefined,
  /** The window the log itself shows (inferred from its context), when it passed 200,000. */
  logWindow?: TokenCount,
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
  // A log whose context went past 200,000 on a model Cline offers with 1M ran with the 1M window:
  // in Cline that is the `:1m` model a person picks, or the SDK's own window for it (ours: the
  // log's evidence decides, so a log under 200,000 keeps the 200,000 window).
  const ids = models.map((x) => x.toLowerCase().replace(/\[1m\]$/, ''));
  if (
    logWindow !== undefined &&
    logWindow >= CLINE_1M_WINDOW &&
    ids.length > 0 &&
    ids.every((id) => CLINE_1M_MODELS.has(id))
  )
    return {
      tokens: CLINE_1M_WINDOW,
      why: `the log's context passed 200,000, and Cline offers ${ids[0]} with a 1M window (its ${ids[0]}:1m in src/shared/api.ts; the SDK catalog's own window)`,
    };
  if (/claude/.test(m)) return { tokens: 200_000, why: 'a Claude model: 200,000 (src/shared/api.ts)' };
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
