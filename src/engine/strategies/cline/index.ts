import { getLogWindow } from '../session-window';
import type { TokenCount } from '../../types';
import type { CompactionStrategy, SessionInfo } from '../types';
import { getProfile, pickProfile } from '../version-profile';
import { ClineRun } from './classic-run';
import { CLINE_DESCRIPTOR } from './descriptor';
import {
  CLINE_DEFAULT_KNOBS,
  CLINE_DEFAULT_WINDOW,
  type ClineKnobs,
  getClineMaxAllowed,
  getClineSdkTrigger,
} from './knobs';
import { CLINE_PROFILES } from './profiles';
import { ClineSdkRun } from './sdk-run';

// Cline: the classic ContextManager (classic-run.ts) until 3.89, the Cline SDK's compaction
// (sdk-run.ts) from 4.0; the release profile (profiles.ts) picks which, and its prompt.

export type { ClineKnobs } from './knobs';
export { CLINE_DEFAULT_WINDOW, getClineCondenseThreshold, getClineMaxAllowed } from './knobs';

/** `openAiModelInfoSaneDefaults`, and the provider's model info falling back to it. */
const OPENAI_DEFAULTS =
  'cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/shared/api.ts:1324-1326, src/core/api/providers/openai.ts:185';

/** Cline's window for a model id when the log states none (context-window-utils.ts, its providers). */
function windowForModel(info: SessionInfo): { tokens: TokenCount; why: string } | undefined {
  // The OpenAI-compatible provider ("openai") uses the model info the person set for it, else
  // these defaults, whatever the model id names: an id like "claude_4_5_opus" through it has a
  // 128,000-token window unless they set another (the log does not say). A real task through it
  // truncated each time the context crossed 98,000 (128,000 − 30,000).
  if (info.providers?.length && info.providers.every((p) => p === 'openai'))
    return {
      tokens: 128_000,
      why: `through Cline's OpenAI-compatible provider, whose window is the person's setting, else 128,000 (${OPENAI_DEFAULTS})`,
    };
  const m = info.models.join(' ').toLowerCase();
  if (/deepseek/.test(m))
    return { tokens: 64_000, why: 'a DeepSeek model: 64,000 (context-window-utils.ts)' };
  if (/claude/.test(m)) return { tokens: 200_000, why: 'a Claude model: 200,000' };
  return undefined;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** The formats Cline writes (its UI log, its API history, its task metadata). */
const CLINE_FORMATS = ['cline-ui', 'cline', 'cline-task-metadata'];

export const CLINE_STRATEGY: CompactionStrategy<ClineKnobs> = {
  ...CLINE_DESCRIPTOR,
  getSessionKnobs: (info) => {
    const pick = pickProfile(CLINE_PROFILES, info, 'Cline', CLINE_FORMATS);
    const profile = pick.profile;
    const notes: string[] = [pick.note];
    const logWindow = getLogWindow(info, {
      fallback: CLINE_DEFAULT_WINDOW,
      fallbackNote: `The log names no known model: Cline's default window, ${fmt(CLINE_DEFAULT_WINDOW)}.`,
      byModel: windowForModel,
    });
    const contextWindow = logWindow.tokens;
    notes.push(logWindow.note);
    const knobs: ClineKnobs = { ...CLINE_DEFAULT_KNOBS, profile: profile.id, contextWindow };
    if (profile.engine === 'classic') {
      knobs.autoCondensePercent = profile.condense?.percent ?? 100;
      notes.push(
        `maxAllowedSize ${fmt(getClineMaxAllowed(knobs))}; auto-condense off (Cline's default${profile.condense ? '' : ', and this release has none'}; the UI log shows no summarize_task).`,
      );
    } else {
      const sdk = profile.sdk!;
      knobs.useAutoCondense = sdk.autoDefault;
      knobs.summaryMaxTokens = sdk.summaryMaxTokens;
      // The SDK's model catalog states Claude models' input limit as their window
      // (cline/cline@7e31fb9e0d5f38f3437d6f12a01711a0142fccca:sdk/packages/llms/src/catalog/catalog.generated.ts:1227-1228).
      if (/claude/i.test(info.models.join(' '))) knobs.sdkMaxInputTokens = contextWindow;
      notes.push(
        `Cline SDK: ${sdk.autoDefault ? `auto-compact on (the default), ${sdk.strategy}` : 'auto-condense off (the default): no automatic compaction'}; compacts at ${fmt(getClineSdkTrigger(knobs, sdk.trigger))}${knobs.sdkMaxInputTokens !== undefined ? ' (the catalog states the input limit as the window)' : ' (90% of the window is the usable input)'}.`,
      );
    }
    if (info.format !== undefined && !CLINE_FORMATS.includes(info.format))
      notes.push('The log is not a Cline task, so its compactions are not expected to match.');
    return { knobs, notes };
  },
  createRun: (knobs, prepared) => {
    const profile = getProfile(CLINE_PROFILES, knobs.profile);
    if (profile.engine === 'sdk') return new ClineSdkRun(knobs, prepared, profile);
    // A release without auto-condense truncates whatever the knob says.
    const run = profile.condense ? knobs : { ...knobs, useAutoCondense: false };
    return new ClineRun(run, prepared, profile.presetId);
  },
};
