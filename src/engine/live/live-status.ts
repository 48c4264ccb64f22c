import { inferContextWindow } from '../parse/context-window';
import { getStrategy } from '../strategies/registry';
import { getDefaultStrategyId } from '../strategies/descriptors';
import type { SessionInfo } from '../strategies/types';
import type { TokenCount } from '../types';
import { noteForecast } from './forecast-score';
import { getPaceTokensPerCall, type LiveFigures } from './live-figures';

// Where a live session stands against its agent version's thresholds: the figures of the
// transcript so far, read through the strategy's own `getSessionKnobs` and `thresholds`, so the
// status line, `watch` and the replay agree on the numbers.

/** Microcompact counts as near within this many tokens of its trigger (one large tool result). */
const MICROCOMPACT_NEAR_TOKENS: TokenCount = 10_000;

/** What the caller knows better than the transcript (Claude Code's statusLine payload). */
export interface LiveOverrides {
  version?: string;
  model?: string;
  contextWindowTokens?: TokenCount;
  /** Context of the latest call as the agent counts it (input + cache writes + cache reads). */
  contextTokens?: TokenCount;
  outputTokens?: TokenCount;
}

export interface LiveStatus {
  strategyId: string;
  version?: string;
  contextWindowTokens: TokenCount;
  contextTokens: TokenCount;
  /** Context + output of the latest call: what the next auto-compact check compares (docs/sources.md#fmt-usage, `preTokens`). */
  usedTokens: TokenCount;
  autoCompactTokens?: TokenCount;
  /** Tokens left before auto-compact fires; 0 when past it. */
  tokensLeft?: TokenCount;
  /** At the recent pace, calls left before it fires. */
  callsLeft?: number;
  paceTokensPerCall?: number;
  microcompactTokens?: TokenCount;
  microcompactNear: boolean;
  compactions: number;
  microcompactions: number;
}

/** The status of a live session under the thresholds of its own agent version. */
export function computeLiveStatus(f: LiveFigures, overrides: LiveOverrides = {}): LiveStatus {
  const strategy = getStrategy(getDefaultStrategyId(f.format));
  const version = overrides.version ?? f.version;
  const model = overrides.model ?? f.model;
  const info: SessionInfo = {
    versions: version ? [version] : [],
    models: model ? [model] : [],
    isSubagent: false,
    autoCompactions: f.compactions,
    microcompactions: f.microcompactions,
    continuedPeakTokens: 0,
    format: f.format,
    contextWindow: f.contextWindow,
    windowInference: getLiveWindow(f, overrides),
  };
  let { knobs } = strategy.getSessionKnobs(info);
  if (overrides.contextWindowTokens !== undefined && overrides.contextWindowTokens > 0)
    knobs = strategy.normalizeKnobs({ contextWindow: overrides.contextWindowTokens }, knobs);
  // Where the strategy acts: a trigger its knobs turned off is not one.
  const lines = strategy.thresholds(knobs).filter((l) => !l.off);
  const tokensOf = (id: string) => lines.find((l) => l.id === id)?.tokens;
  const contextTokens = overrides.contextTokens ?? f.contextTokens;
  const usedTokens = contextTokens + (overrides.outputTokens ?? f.outputTokens);
  const autoCompactTokens = tokensOf('auto-compact');
  const microcompactTokens = tokensOf('microcompact');
  const tokensLeft =
    autoCompactTokens === undefined ? undefined : Math.max(0, autoCompactTokens - usedTokens);
  const pace = getPaceTokensPerCall(f);
  return {
    strategyId: strategy.id,
    version,
    contextWindowTokens: tokensOf('window') ?? overrides.contextWindowTokens ?? 0,
    contextTokens,
    usedTokens,
    autoCompactTokens,
    tokensLeft,
    callsLeft: tokensLeft !== undefined && pace !== undefined ? Math.ceil(tokensLeft / pace) : undefined,
    paceTokensPerCall: pace,
    microcompactTokens,
    microcompactNear:
      microcompactTokens !== undefined && usedTokens >= microcompactTokens - MICROCOMPACT_NEAR_TOKENS,
    compactions: f.compactions,
    microcompactions: f.microcompactions,
  };
}

/**
 * The window of the session so far, by the rule inspect and replay read a parsed log with
 * (`inferContextWindow`: stated, a 1M model id, a context or auto-compaction past 200k, else 200k),
 * over the lines read and what the payload adds (its model id and latest context). A window the
 * payload states (`context_window_size`) still wins, as the knobs' override after this.
 */
function getLiveWindow(f: LiveFigures, overrides: LiveOverrides) {
  const models =
    overrides.model && !f.models.includes(overrides.model) ? [...f.models, overrides.model] : f.models;
  return inferContextWindow({
    models,
    peakContextTokens: Math.max(f.peakContextTokens, overrides.contextTokens ?? 0),
    autoCompactPreTokens: f.autoCompactPreTokens,
    ...(f.contextWindow !== undefined ? { statedWindowTokens: f.contextWindow } : {}),
  });
}

/** Notes the prediction of this moment on the figures, to score it when a compaction lands. */
export function recordLivePrediction(f: LiveFigures, status: LiveStatus): void {
  if (status.autoCompactTokens === undefined || f.apiCalls === 0) return;
  f.lastThresholdTokens = status.autoCompactTokens;
  const { callsLeft } = status;
  f.forecasts = noteForecast(
    f.forecasts ?? {},
    callsLeft === undefined ? undefined : { atCall: f.apiCalls, predictedAtCall: f.apiCalls + callsLeft },
  );
}
