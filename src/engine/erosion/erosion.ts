import { at } from '../assert';
import { readSpanMessages } from '../compact/span-messages';
import type { ApiMessage } from '../compact/types';
import { readEntryText } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { requirePreset } from '../strategies/prompt-presets';
import { readSummaryNote, readSummaryText as readSummaryOf } from '../query/compaction-detail';
import { maskJsonValue, maskText, type RedactionSettings } from '../redact/mask';
import type { ReplayEvent, ReplayEventFields } from '../replay/types';
import { extractRetentionFacts } from '../retention/extract';
import { matchFact, normalizeForMatch, prepareSummary } from '../retention/score';
import {
  FACT_CATEGORIES,
  type CategoryScore,
  type FactCategory,
  type RetentionFact,
} from '../retention/types';
import { renderBuiltinSummary } from '../summarize/builtin';
import { getMainCompactions } from '../summarize/span';
import {
  buildModelStepRequest,
  cleanModelSummary,
  hashSummaryRequest,
  type ModelStepOptions,
} from './model-step';
import type { Session } from '../types';

// Erosion across compactions: retention (retention/score.ts) scores a summary against the span it
// replaced; a summary of summaries forgets more with every step. Here every summary of a chain is
// scored against everything the session held since its start: the facts of each span (the same
// extraction and matching as retention) pooled in order, so a fact of the first span is checked
// again after the 2nd, 3rd, 4th compaction, and each step lists what it lost.
//
// Two chains: the log's own (each real compaction's recorded continuation message), and a replay's
// (each replayed compaction summarized by the built-in summarizer, the previous built-in summary
// opening the next span, as compacted-jsonl.ts writes them; the replay itself models sizes only).

/** A fact in the chain: where the session first held it, and whether each step's summary kept it. */
interface ErosionFact {
  id: number;
  category: FactCategory;
  text: string;
  /** The step whose span first held it (0: the span the first compaction replaced). */
  origin: number;
  /** The first entry of that span holding it (the start of the span when the text is not found verbatim). */
  entryIndex: number;
  /** That entry's file and 1-based line. */
  fileIndex: number;
  line: number;
  /** Per step: kept by that step's summary (false for steps before `origin`). */
  kept: boolean[];
}

interface ErosionStep {
  index: number;
  /** "compaction 2 (auto) at line 812" / "replay compact 3 after API call 40". */
  label: string;
  /** Index into `session.compactions` (log chain, or a replay event that adopted a real one). */
  compactionIndex?: number;
  /** Index into the replay's events (replay chain). */
  eventIndex?: number;
  /** The span this step replaced: entries [from, upto] (what the chain learnt since the previous step). */
  spanFromEntryIndex: number;
  spanToEntryIndex: number;
  /** Whose text the step is scored on. */
  summarySource: 'recorded' | 'builtin' | 'model';
  summaryChars: number;
  /** Facts first held in this step's span. */
  newFacts: number;
  /** Over every fact held since the start (origin ≤ this step). */
  total: number;
  kept: number;
  ratio: number;
  byCategory: Record<FactCategory, CategoryScore>;
  /** Per origin step (index = origin): facts of that span still kept after this step. */
  byOrigin: { total: number; kept: number }[];
  /** Facts held just before this step (kept by the previous summary, or in this span) that it lost. */
  lost: number[];
  /** Facts a previous summary had lost that this step holds again (they came back in its span). */
  regained: number[];
}

export interface ErosionChain {
  source: 'log' | 'replay';
  strategyId?: string;
  steps: ErosionStep[];
  facts: ErosionFact[];
  notes: string[];
  /** Replay chain with a model: the steps whose summary call failed (not scored; their facts join the next step's). */
  failures?: { eventIndex: number; label: string; error: string }[];
  /** Replay chain with a model: the steps whose summary it produced. */
  modelSteps?: number;
}

/** One step's input to the pure core: the span's facts, located, and the text that replaced it. */
interface ErosionStepInput {
  label: string;
  compactionIndex?: number;
  eventIndex?: number;
  spanFromEntryIndex: number;
  spanToEntryIndex: number;
  facts: LocatedFact[];
  summary: string;
  summarySource: 'recorded' | 'builtin' | 'model';
}

export interface LocatedFact extends RetentionFact {
  entryIndex: number;
  fileIndex: number;
  line: number;
}

const emptyCategories = (): Record<FactCategory, CategoryScore> =>
  Object.fromEntries(FACT_CATEGORIES.map((c) => [c, { total: 0, kept: 0, ratio: 1 }])) as Record<
    FactCategory,
    CategoryScore
  >;

const factKey = (f: RetentionFact): string => `${f.category}\u0000${normalizeForMatch(f.text)}`;

/**
 * The chain from its steps (pure): facts pooled by category and normalized text in order of first
 * appearance, each step's summary matched against the whole pool (`matchFact`, the retention rule).
 */
export function computeErosionChain(
  source: ErosionChain['source'],
  inputs: readonly ErosionStepInput[],
  notes: string[] = [],
): ErosionChain {
  const facts: (ErosionFact & { variants?: string[] })[] = [];
  const byKey = new Map<string, number>();
  const steps: ErosionStep[] = [];
  let previousKept: boolean[] = [];
  for (const [k, input] of inputs.entries()) {
    const inSpan = new Set<number>();
    let newFacts = 0;
    for (const fact of input.facts) {
      const key = factKey(fact);
      let id = byKey.get(key);
      if (id === undefined) {
        id = facts.length;
        byKey.set(key, id);
        facts.push({
          id,
          category: fact.category,
          text: fact.text,
          variants: fact.variants,
          origin: k,
          entryIndex: fact.entryIndex,
          fileIndex: fact.fileIndex,
          line: fact.line,
          kept: new Array<boolean>(k).fill(false),
        });
        newFacts++;
      }
      inSpan.add(id);
    }
    const prepared = prepareSummary(input.summary);
    const byCategory = emptyCategories();
    const byOrigin = Array.from({ length: k + 1 }, () => ({ total: 0, kept: 0 }));
    const lost: number[] = [];
    const regained: number[] = [];
    let kept = 0;
    for (const fact of facts) {
      const isKept = matchFact(fact, prepared) !== 'missed';
      fact.kept.push(isKept);
      const score = byCategory[fact.category];
      score.total++;
      at(byOrigin, fact.origin).total++;
      if (isKept) {
        score.kept++;
        kept++;
        at(byOrigin, fact.origin).kept++;
      }
      const heldBefore = (previousKept[fact.id] ?? false) || inSpan.has(fact.id);
      if (heldBefore && !isKept) lost.push(fact.id);
      if (isKept && fact.origin < k && previousKept[fact.id] === false) regained.push(fact.id);
    }
    for (const score of Object.values(byCategory))
      score.ratio = score.total === 0 ? 1 : score.kept / score.total;
    previousKept = facts.map((f) => at(f.kept, k));
    steps.push({
      index: k,
      label: input.label,
      compactionIndex: input.compactionIndex,
      eventIndex: input.eventIndex,
      spanFromEntryIndex: input.spanFromEntryIndex,
      spanToEntryIndex: input.spanToEntryIndex,
      summarySource: input.summarySource,
      summaryChars: input.summary.length,
      newFacts,
      total: facts.length,
      kept,
      ratio: facts.length === 0 ? 1 : kept / facts.length,
      byCategory,
      byOrigin,
      lost,
      regained,
    });
  }
  return {
    source,
    steps,
    facts: facts.map(({ variants: _variants, ...f }) => f),
    notes,
  };
}

/** Every string inside a message's content, for finding where a fact was written. */
function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [key, v] of Object.entries(value))
      if (key !== 'id' && key !== 'tool_use_id') collectStrings(v, out);
}

interface SpanRange {
  fromEntryIndex: number;
  uptoEntryIndex: number;
  excludeEntryIndices?: readonly number[];
}

/**
 * A span's facts (`extractRetentionFacts` over the messages `WZ` would send), each located at the
 * first entry whose text holds it. One read of the span's records.
 */
async function extractLocatedFacts(
  session: Session,
  sources: ByteSource[],
  range: SpanRange,
  redaction?: RedactionSettings,
  signal?: AbortSignal,
): Promise<LocatedFact[]> {
  const normalized = await readSpanMessages(session, sources, range, { signal });
  const messages: ApiMessage[] = redaction
    ? maskJsonValue(normalized.messages, redaction)
    : normalized.messages;
  const facts = extractRetentionFacts(messages);
  // One normalized text of the span, each message's start recorded, to find a fact in one search.
  const starts: number[] = [];
  let joined = '';
  for (const m of messages) {
    starts.push(joined.length);
    const strings: string[] = [];
    collectStrings(m.content, strings);
    joined += `${normalizeForMatch(strings.join('\n'))}\n`;
  }
  const fallback = normalized.entryIndices[0] ?? Math.max(0, range.fromEntryIndex);
  const locate = (fact: RetentionFact): number => {
    for (const text of [fact.text, ...(fact.variants ?? [])]) {
      const needle = normalizeForMatch(text);
      if (!needle) continue;
      const offset = joined.indexOf(needle);
      if (offset < 0) continue;
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (at(starts, mid) <= offset) lo = mid;
        else hi = mid - 1;
      }
      return normalized.sources[lo]?.[0] ?? fallback;
    }
    return fallback;
  };
  return facts.map((fact) => {
    const entryIndex = locate(fact);
    const entry = session.entries[entryIndex];
    return { ...fact, entryIndex, fileIndex: entry?.fileIndex ?? 0, line: entry?.line ?? 0 };
  });
}

/**
 * A summary entry's text as its dialect reads it (pi's compaction keeps it in `summary`, Codex's in
 * `message`); `note` says why there is none to read (a remote Codex compaction's is encrypted).
 */
async function readSummary(
  session: Session,
  sources: ByteSource[],
  entryIndex: number,
): Promise<{ text?: string; note?: string }> {
  const raw = await readEntryText(sources, session, entryIndex);
  const text = readSummaryOf(session, entryIndex, raw);
  return text === undefined ? { note: readSummaryNote(session, entryIndex, raw) } : { text };
}

interface ErosionOptions {
  redaction?: RedactionSettings;
  /** A replay's compactions summarized by a language model (model-step.ts) instead of the built-in summarizer. */
  model?: ModelStepOptions;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** The log's chain: each main-thread compaction's recorded continuation against everything before it. */
export async function computeLogErosion(
  session: Session,
  sources: ByteSource[],
  options: ErosionOptions = {},
): Promise<ErosionChain> {
  const notes: string[] = [];
  const inputs: ErosionStepInput[] = [];
  const compactions = getMainCompactions(session).sort(
    (a, b) => a.compaction.entryIndex - b.compaction.entryIndex,
  );
  let from = 0;
  let exclude: number[] = [];
  for (const [i, { compactionIndex, compaction }] of compactions.entries()) {
    options.onProgress?.(i, compactions.length);
    const range = {
      fromEntryIndex: from,
      uptoEntryIndex: compaction.entryIndex - 1,
      excludeEntryIndices: exclude,
    };
    // The next span starts at this boundary, without its summary (scored here, not a fact source).
    from = compaction.entryIndex;
    exclude = [
      compaction.entryIndex,
      ...(compaction.summaryEntryIndex === undefined ? [] : [compaction.summaryEntryIndex]),
    ];
    const label = `compaction ${compactionIndex + 1} (${compaction.trigger}) at line ${compaction.line}`;
    const facts = await extractLocatedFacts(session, sources, range, options.redaction, options.signal);
    const read =
      compaction.summaryEntryIndex === undefined
        ? undefined
        : await readSummary(session, sources, compaction.summaryEntryIndex);
    if (read?.text === undefined) {
      // Its facts still join the pool, through the next span's step.
      notes.push(
        read?.note ? `${label}: ${read.note} Not scored.` : `${label}: no summary recorded; not scored`,
      );
      from = range.fromEntryIndex;
      exclude = [...range.excludeEntryIndices, compaction.entryIndex];
      continue;
    }
    const raw = read.text;
    inputs.push({
      label,
      compactionIndex,
      spanFromEntryIndex: range.fromEntryIndex,
      spanToEntryIndex: range.uptoEntryIndex,
      facts,
      summary: options.redaction ? maskText(raw, options.redaction) : raw,
      summarySource: 'recorded',
    });
  }
  options.onProgress?.(compactions.length, compactions.length);
  if (compactions.length === 0) notes.push('The log has no compaction of the main conversation.');
  return computeErosionChain('log', inputs, notes);
}

/** Event kinds that replace the history with a summary. */
const SUMMARY_EVENTS = new Set<ReplayEvent['kind']>(['compact', 'reset']);

/**
 * A replay's chain: each `compact` event summarized by the built-in summarizer over the span the
 * event request names (the previous built-in summary first when the span follows a simulated
 * boundary), each `reset` (a real manual compaction the replay adopts) scored on its recorded summary.
 */
export async function computeReplayErosion(
  session: Session,
  sources: ByteSource[],
  events: readonly ReplayEvent[],
  strategyId: string,
  options: ErosionOptions = {},
): Promise<ErosionChain> {
  const preset = requirePreset('claude-code-full');
  const model = options.model;
  const notes: string[] = [
    model
      ? `Replayed summaries are written by ${model.model} from the request each compaction would send.`
      : 'Replayed summaries are written by the built-in summarizer (offline, no language model): the replay models their sizes only.',
  ];
  const failures: NonNullable<ErosionChain['failures']> = [];
  const inputs: ErosionStepInput[] = [];
  let previousSummary: string | undefined;
  let nextFrom = 0;
  const chosen = [...events.entries()].filter(([, e]) => SUMMARY_EVENTS.has(e.kind));
  for (const [n, [eventIndex, replayEvent]] of chosen.entries()) {
    const event: ReplayEventFields = replayEvent;
    options.onProgress?.(n, chosen.length);
    options.signal?.throwIfAborted();
    const spec = event.request;
    const upto = spec?.uptoEntryIndex ?? event.spanToEntryIndex ?? event.afterEntryIndex;
    // Facts: what the session held since the previous step (the span's own entries, not its summary).
    const realSummary =
      event.realCompactionIndex === undefined ? undefined : session.compactions[event.realCompactionIndex];
    const exclude = [...(spec?.excludeEntryIndices ?? [])];
    const range = { fromEntryIndex: nextFrom, uptoEntryIndex: upto, excludeEntryIndices: exclude };
    const facts = await extractLocatedFacts(session, sources, range, options.redaction, options.signal);
    let summary: string;
    let summarySource: ErosionStepInput['summarySource'];
    if (event.kind === 'reset' && realSummary?.summaryEntryIndex !== undefined) {
      const raw = (await readSummary(session, sources, realSummary.summaryEntryIndex)).text ?? '';
      summary = options.redaction ? maskText(raw, options.redaction) : raw;
      summarySource = 'recorded';
      // The replay continues from the log's own context after it.
      nextFrom = realSummary.entryIndex;
      exclude.length = 0;
    } else if (model) {
      const label = `replay compaction ${n + 1} after API call ${event.afterApiCall + 1}`;
      const built = await buildModelStepRequest(
        session,
        sources,
        event,
        previousSummary,
        model.model,
        options.redaction,
        options.signal,
      );
      const info = {
        eventIndex,
        step: n,
        label,
        hash: await hashSummaryRequest(built.request),
        estimatedTokens: built.estimatedTokens,
      };
      try {
        const raw = await model.summarize(built.request, info);
        summary = cleanModelSummary(options.redaction ? maskText(raw, options.redaction) : raw, built.preset);
      } catch (e) {
        options.signal?.throwIfAborted();
        // Not scored; its span's facts join the next step's (as a log compaction without a summary).
        failures.push({ eventIndex, label, error: e instanceof Error ? e.message : String(e) });
        notes.push(`${label}: the summary call failed; not scored`);
        continue;
      }
      summarySource = 'model';
      nextFrom = upto + 1;
    } else {
      const span = {
        fromEntryIndex: spec?.fromEntryIndex ?? event.spanFromEntryIndex ?? nextFrom,
        uptoEntryIndex: upto,
        excludeEntryIndices: exclude,
      };
      let messages = (await readSpanMessages(session, sources, span, { elideBase64: true })).messages;
      if (options.redaction) messages = maskJsonValue(messages, options.redaction);
      if (spec?.previousSummaryTokens !== undefined && previousSummary !== undefined)
        messages = [{ role: 'user', content: [{ type: 'text', text: previousSummary }] }, ...messages];
      summary = renderBuiltinSummary(
        { system: '', messages, prompt: preset.prompt, model: 'builtin', maxOutputTokens: 0 },
        { sections: preset.sections, output: preset.output },
      );
      summarySource = 'builtin';
      nextFrom = upto + 1;
    }
    previousSummary = summary;
    inputs.push({
      label: `replay ${event.kind === 'reset' ? 'reset' : 'compaction'} ${n + 1} after API call ${event.afterApiCall + 1}`,
      compactionIndex: event.realCompactionIndex,
      eventIndex,
      spanFromEntryIndex: range.fromEntryIndex,
      spanToEntryIndex: upto,
      facts,
      summary,
      summarySource,
    });
  }
  options.onProgress?.(chosen.length, chosen.length);
  if (chosen.length === 0) notes.push(`The replay with ${strategyId} summarizes nothing.`);
  const chain = { ...computeErosionChain('replay', inputs, notes), strategyId };
  if (!model) return chain;
  return { ...chain, failures, modelSteps: inputs.filter((i) => i.summarySource === 'model').length };
}
