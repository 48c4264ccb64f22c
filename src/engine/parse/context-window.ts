import { getDialect } from './dialects/registry';
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT_TOKENS,
  EXTENDED_CONTEXT_WINDOW,
  getContextWindowForModel,
} from '../thresholds';
import type { Session, TokenCount } from '../types';

// Which context window and max output a log ran with, inferred from the log itself, with the
// reasons. Claude Code's window is `BcK` = 200,000 unless the model is run extended (the `[1m]`
// model suffix or the `context-1m` beta): docs/sources.md#cc-threshold. The
// log never states it, but three things in it bound it from below:
//   1. a model id that names the 1M variant (`claude-sonnet-4-5-20250929[1m]`);
//   2. the context a call really sent (input + cache creation + cache read, docs/sources.md#fmt-usage): the API
//      refuses a prompt larger than the window, so a call at 586k ran on a window ≥ 586k;
//   3. the log's own auto-compaction points (`compactMetadata.preTokens`): Claude Code fires them
//      below its threshold, so one over 200k means a larger window, and ones near 167k fit 200k.
//      Manual ones are not evidence: /compact after "prompt is too long" counts past the window size.
// Models whose native window is 1M (Opus 4.6: platform.claude.com/docs/en/models/opus-4-6)
// still ran at 200k in Claude Code unless extended: the corpus's opus-4-6 logs auto-compact at
// 167k–175k (LAF-US__IDAHO-VAULT 05541cb5). So a model's native window is not evidence.

/** Max output tokens per model family, from Anthropic's model pages (platform.claude.com/docs/en/models/<model>/overview). */
const MAX_OUTPUT_BY_MODEL: readonly { pattern: RegExp; tokens: TokenCount; source: string }[] = [
  {
    pattern: /claude-3-5-(sonnet|haiku)|claude-3-haiku/,
    tokens: 8_192,
    source: 'Claude 3.5 / 3 Haiku: 8,192',
  },
  { pattern: /claude-3-7-sonnet/, tokens: 64_000, source: 'Claude Sonnet 3.7: 64,000' },
  { pattern: /claude-opus-4-(6|7|8)/, tokens: 128_000, source: 'Claude Opus 4.6–4.8: 128,000' },
  { pattern: /claude-opus-4(-1)?(-20|$|\[)/, tokens: 32_000, source: 'Claude Opus 4 / 4.1: 32,000' },
  {
    pattern: /claude-(sonnet-4|haiku-4-5|opus-4-5)/,
    tokens: 64_000,
    source: 'Claude Sonnet 4.x, Haiku 4.5, Opus 4.5: 64,000',
  },
];

/** Rounds up to the next 1,000 tokens (for windows beyond the known ones). */
const roundUpThousands = (tokens: TokenCount): TokenCount => Math.ceil(tokens / 1_000) * 1_000;

/**
 * What a log shows of its window: a parsed session's (`getSessionWindow`) and a live session's
 * read so far (engine/live/live-status.ts) are both read through `inferContextWindow`: one rule.
 */
interface WindowEvidence {
  /** Model ids of the main thread's calls (synthetic excluded). */
  models: string[];
  /** The largest context a main-thread call sent. */
  peakContextTokens: TokenCount;
  /** `preTokens` of the log's own auto-compactions (main thread). */
  autoCompactPreTokens: TokenCount[];
  /** A window the log states (Codex `model_context_window`). */
  statedWindowTokens?: TokenCount;
  /** The window the log's own agent gives its models (Gemini CLI's token limit), when it knows them. */
  agentWindow?: { tokens: TokenCount; why: string };
}

/** `assumed`: the default for models none of which is Claude's (no window known for them here). */
export type WindowSource = 'stated' | 'model-id' | 'observed' | 'default' | 'assumed';

export interface ContextWindowInference {
  windowTokens: TokenCount;
  maxOutputTokens: TokenCount;
  windowSource: WindowSource;
  /** One sentence per choice (window, max output), for the notes and the bars' tooltip. */
  reasons: string[];
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The max output of a model id and where it comes from; undefined when the table does not know it. */
export function getMaxOutputForModel(model: string): { tokens: TokenCount; source: string } | undefined {
  const id = model.toLowerCase();
  const row = MAX_OUTPUT_BY_MODEL.find((r) => r.pattern.test(id));
  return row && { tokens: row.tokens, source: row.source };
}

/** The window and max output a log ran with, from its model ids, peaks and compaction points. */
export function inferContextWindow(evidence: WindowEvidence): ContextWindowInference {
  const reasons: string[] = [];
  const observed = Math.max(evidence.peakContextTokens, 0, ...evidence.autoCompactPreTokens);
  const extendedModel = evidence.models.find((m) => getContextWindowForModel(m) === EXTENDED_CONTEXT_WINDOW);
  let windowTokens: TokenCount;
  let windowSource: WindowSource;
  if (evidence.statedWindowTokens !== undefined && evidence.statedWindowTokens >= observed) {
    windowTokens = evidence.statedWindowTokens;
    windowSource = 'stated';
    reasons.push(`Window ${fmt(windowTokens)}: the log states it.`);
  } else if (evidence.agentWindow && evidence.agentWindow.tokens >= observed) {
    // Not Claude's 200k for another agent's model: its own limit for it, as its strategy uses.
    windowTokens = evidence.agentWindow.tokens;
    windowSource = 'model-id';
    reasons.push(`Window ${fmt(windowTokens)}: ${evidence.agentWindow.why}.`);
  } else if (extendedModel !== undefined && observed <= EXTENDED_CONTEXT_WINDOW) {
    windowTokens = EXTENDED_CONTEXT_WINDOW;
    windowSource = 'model-id';
    reasons.push(`Window 1M: the model id ${extendedModel} names the extended (1M) context.`);
  } else if (observed > DEFAULT_CONTEXT_WINDOW) {
    windowTokens = observed <= EXTENDED_CONTEXT_WINDOW ? EXTENDED_CONTEXT_WINDOW : roundUpThousands(observed);
    windowSource = 'observed';
    reasons.push(
      `Window ${windowTokens === EXTENDED_CONTEXT_WINDOW ? '1M' : fmt(windowTokens)}: the log's context reached ${fmt(observed)} tokens, over the 200k default, so it ran on the extended context.`,
    );
  } else {
    windowTokens = DEFAULT_CONTEXT_WINDOW;
    const pre = evidence.autoCompactPreTokens;
    // Another maker's model (an agent run through another provider): Claude's figure is no
    // fact about it, only the assumption; say so rather than reason from Claude's model ids.
    const others = evidence.models.filter((m) => !/claude/i.test(m));
    const named = `${others.slice(0, 2).join(', ')}${others.length > 2 ? ', …' : ''}`;
    const unknownModels = evidence.models.length > 0 && others.length === evidence.models.length;
    windowSource = unknownModels ? 'assumed' : 'default';
    const why = unknownModels
      ? `ours: the log states no window, and none is known here for ${named}: 200k is the Claude models' standard context)`
      : 'ours: the standard context of the Claude models; the log states no window): no model id names the 1M context';
    const fired =
      pre.length > 0
        ? `; its auto-compactions fired at ${fmt(Math.min(...pre))}–${fmt(Math.max(...pre))}, below a 200k window`
        : '';
    reasons.push(`Window 200k, assumed (${why} and the context peaked at ${fmt(observed)} tokens${fired}.`);
  }
  const known = evidence.models
    .map((m) => ({ model: m, row: getMaxOutputForModel(m) }))
    .filter((x): x is { model: string; row: { tokens: TokenCount; source: string } } => x.row !== undefined);
  let maxOutputTokens = DEFAULT_MAX_OUTPUT_TOKENS;
  if (known.length > 0) {
    // Several models: the smallest max output reserves the most, which is what the threshold of
    // the model that ran last could not exceed either; the calls' models disagree rarely.
    const pick = known.reduce((a, b) => (b.row.tokens < a.row.tokens ? b : a));
    maxOutputTokens = pick.row.tokens;
    reasons.push(`Max output ${fmt(maxOutputTokens)} for ${pick.model} (${pick.row.source}).`);
  } else {
    reasons.push(
      `Max output ${fmt(maxOutputTokens)}: ${evidence.models.length > 0 ? `${evidence.models.join(', ')} not in the model table` : 'no model id'}, so the current default is assumed.`,
    );
  }
  return { windowTokens, maxOutputTokens, windowSource, reasons };
}

/** The evidence a session holds: main-thread models, peak context, main auto-compactions' preTokens. */
const inferred = new WeakMap<Session, ContextWindowInference>();

/** `inferContextWindow` of a session's evidence, once per session (the header and every strategy's setup read it). */
export function getSessionWindow(session: Session): ContextWindowInference {
  let window = inferred.get(session);
  if (!window) {
    window = inferContextWindow(getWindowEvidence(session));
    inferred.set(session, window);
  }
  return window;
}

function getWindowEvidence(session: Session): WindowEvidence {
  const main = new Set(session.files.filter((f) => f.role === 'main').map((f) => f.index));
  const models = new Set<string>();
  let peakContextTokens = 0;
  for (const call of session.apiCalls) {
    if (!main.has(call.fileIndex) || call.model === '<synthetic>') continue;
    if (session.entries[call.firstEntryIndex]?.isSidechain && !session.files[call.fileIndex]?.openedAlone)
      continue;
    models.add(call.model);
    peakContextTokens = Math.max(peakContextTokens, call.contextTokens);
  }
  const autoCompactPreTokens = session.compactions
    .filter((c) => c.kind === 'compact' && c.trigger === 'auto' && main.has(c.fileIndex))
    .flatMap((c) => (c.preTokens === undefined ? [] : [c.preTokens]));
  return {
    models: [...models],
    peakContextTokens,
    autoCompactPreTokens,
    ...(session.meta.contextWindow !== undefined ? { statedWindowTokens: session.meta.contextWindow } : {}),
    ...getAgentWindow(session.format, models, session.meta.providers ?? []),
  };
}

/** The largest window the log's agent gives the log's models, when its dialect knows them. */
function getAgentWindow(
  format: Session['format'],
  models: ReadonlySet<string>,
  providers: readonly string[],
): Pick<WindowEvidence, 'agentWindow'> {
  const byModel = getDialect(format)?.modelWindow;
  let agentWindow: WindowEvidence['agentWindow'];
  if (byModel)
    for (const model of models) {
      const w = byModel(model, providers);
      if (w && (!agentWindow || w.tokens > agentWindow.tokens)) agentWindow = w;
    }
  return agentWindow ? { agentWindow } : {};
}

/**
 * The threshold knobs an inference sets, with a note for each that departs from the defaults
 * (200k window, 64k max output). The max output only moves the thresholds through the reserved
 * `min(max output, cap)` (Claude Code 2.1.68 (docs/sources.md#cc-threshold): cap a5Y = 20,000; 32,000 in 2.0.x), so it is set
 * only when the model's is below the cap; a larger one reserves the cap like the default does.
 */
export function getInferredWindowKnobs(
  inference: ContextWindowInference,
  reservationCap: TokenCount,
): { contextWindow: TokenCount; maxOutputTokens: TokenCount; notes: string[] } {
  const notes: string[] = [];
  if (inference.windowTokens !== DEFAULT_CONTEXT_WINDOW) notes.push(inference.reasons[0]!);
  const lowOutput = inference.maxOutputTokens < Math.min(reservationCap, DEFAULT_MAX_OUTPUT_TOKENS);
  if (lowOutput) notes.push(inference.reasons[1]!);
  return {
    contextWindow: inference.windowTokens,
    maxOutputTokens: lowOutput ? inference.maxOutputTokens : DEFAULT_MAX_OUTPUT_TOKENS,
    notes,
  };
}
