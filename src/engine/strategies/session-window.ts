// The window a strategy replays a log with, chosen the same way by every strategy that reads the
// window from the log: the window the log states, else the strategy's own rule for the log's model
// (Cline's context-window-utils), else the window inferred from the log's models and peaks
// (the engine's context-window inference), else the strategy's default. One rule, one note per source.
import type { ContextWindowInference } from '../parse/context-window';
import type { TokenCount } from '../types';
import type { SessionInfo } from './types';

interface LogWindow {
  tokens: TokenCount;
  source: 'stated' | 'model' | 'inferred' | 'default';
  /** The sentence the knobs' notes carry: the window and where it came from. */
  note: string;
  /** The inference, when the log gave one (its max output serves strategies that need it). */
  inference?: ContextWindowInference;
}

interface LogWindowRule {
  /** The strategy's default window, used when the log says nothing. */
  fallback: TokenCount;
  /** What the notes say when the default is used. */
  fallbackNote: string;
  /** The strategy's own window for the log's models (and providers), tried before the inference. */
  byModel?: (info: SessionInfo) => { tokens: TokenCount; why: string } | undefined;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The window for `info` under `rule`, with its note. */
export function getLogWindow(info: SessionInfo, rule: LogWindowRule): LogWindow {
  const inference =
    info.windowInference && info.windowInference.windowTokens > 0 ? info.windowInference : undefined;
  if (info.contextWindow !== undefined && info.contextWindow > 0)
    return {
      tokens: info.contextWindow,
      source: 'stated',
      note: `Window ${fmt(info.contextWindow)} tokens: stated by the log.`,
      inference,
    };
  const byModel = rule.byModel?.(info);
  if (byModel)
    return {
      tokens: byModel.tokens,
      source: 'model',
      note: `Window ${fmt(byModel.tokens)} tokens, from the model (${info.models.join(', ')}): ${byModel.why}.`,
      inference,
    };
  if (inference)
    return {
      tokens: inference.windowTokens,
      source: 'inferred',
      // The inference's first reason names the window and why.
      note: inference.reasons[0] ?? `Window ${fmt(inference.windowTokens)} tokens, inferred from the log.`,
      inference,
    };
  return { tokens: rule.fallback, source: 'default', note: rule.fallbackNote };
}
