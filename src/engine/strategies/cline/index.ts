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
import {
  describeClineModelWindows,
  getClineCallWindows,
  getClineModelWindow,
  hasClineModelSwitch,
} from './model-windows';

// Cline: the classic ContextManager (classic-run.ts) until 3.89, the Cline SDK's compaction
// (sdk-run.ts) from 4.0; the release profile (profiles.ts) picks which, and its prompt.

export type { ClineKnobs } from './knobs';
export { CLINE_DEFAULT_WINDOW, getClineCondenseThreshold, getClineMaxAllowed } from './knobs';

/** Cline's window for the log's models when it states none (model-windows.ts). */
function windowForModel(info: SessionInfo): { tokens: TokenCount; why: string } | undefined {
  return getClineModelWindow(info.models, info.providers, info.windowInference?.windowTokens);
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
    const knobs: ClineKnobs = {
      ...CLINE_DEFAULT_KNOBS,
      profile: profile.id,
      contextWindow,
      windowPerModel: hasClineModelSwitch(info, contextWindow),
    };
    notes.push(...describeClineModelWindows(info, contextWindow));
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
    return new ClineRun(run, prepared, profile.presetId, getClineCallWindows(prepared, knobs));
  },
  // The classic ContextManager checks each request against its model's window; the SDK one, the session's.
  getCallWindows: (knobs, prepared) =>
    getProfile(CLINE_PROFILES, knobs.profile).engine === 'sdk'
      ? undefined
      : getClineCallWindows(prepared, knobs),
};
