import { formatTokenProvenance } from '../replay/provenance';
import type { ReplayEventFields } from '../replay/types';
import type { ClearingProbe } from '../strategies/types';
import { findMinimumKnob } from './place-knobs';
import type { LearnFigure, LearnStep } from './types';
import {
  callPosOf,
  type Context,
  createBar,
  describeToolResult,
  fmt,
  getThresholdLine,
  list,
  step,
} from './walk-parts';

// Learn mode's steps around a clearing or a truncation: the trigger check, each clearing, the
// attempt that did not act, the truncation (walk.ts puts them in order).

/**
 * The log's own automatic compactions of the main thread, said where the replay finds none: a
 * real Gemini CLI chat compacted "from 526049" while its recorded calls peak at 500,657, and the
 * walk said only that Gemini CLI never compacts.
 */
function describeLogCompactions(session: Context['input']['session']): string {
  const real = session.compactions.filter(
    (c) => c.kind === 'compact' && c.trigger === 'auto' && c.apiCallBefore !== undefined,
  );
  if (real.length === 0) return '';
  const where = real
    .map(
      (c) =>
        `after API call ${c.apiCallBefore! + 1}${c.preTokens === undefined ? '' : `, at ${fmt(c.preTokens)} tokens by its own count`}`,
    )
    .join('; ');
  return ` The log itself compacted ${real.length === 1 ? 'once' : `${real.length} times`} (${where}): its recorded calls do not reach the threshold there (the replay's notes say why, where they can tell).`;
}

export function checkStep(ctx: Context, event: ReplayEventFields | undefined): LearnStep {
  const { result, input, explainer, knobs } = ctx;
  const { prepared, session } = input;
  const trigger = result.thresholds.find((t) => t.kind === 'trigger');
  if (!event) {
    let peak = 0;
    for (let i = 1; i < result.checkTokens.length; i++)
      if (result.checkTokens[i]! > result.checkTokens[peak]!) peak = i;
    return step(
      'check',
      'The token check: never reached',
      `After every API call the count is compared with the threshold. On this transcript it peaks at ${fmt(result.checkTokens[peak] ?? 0)} tokens, under ${trigger ? fmt(trigger.tokens) : 'any threshold'}: ${ctx.strategyLabel} never compacts in the replay.${describeLogCompactions(session)} Lower a threshold among the constants to make it fire.`,
      {
        bar: createBar(result, peak, result.callIndex.length),
        figures: [
          { label: 'Peak count', value: result.checkTokens[peak] ?? 0, unit: 'tokens', strong: true },
          ...result.thresholds.map((t) => ({ label: t.label, value: t.tokens, unit: 'tokens' as const })),
          ...(explainer?.thresholdFigures(knobs) ?? []),
        ],
      },
    );
  }
  const pos = callPosOf(result, event.afterApiCall);
  const call = session.apiCalls[event.afterApiCall]!;
  const u = call.usage;
  const simulated = result.simulatedTokens[pos] ?? 0;
  const output = prepared.output[pos] ?? 0;
  const pending = prepared.pendingEstimate[pos] ?? 0;
  const pendingCounted = Math.abs(event.checkTokens - simulated - output - pending) < 1 && pending > 0;
  // A count of the request's input alone (Gemini CLI's last prompt) leaves the output out: the
  // breakdown drops it (provenance.ts, withStrategyCount), and so does this figure's note.
  const outputCounted = output > 0 && event.preSource.outputTokens !== 0;
  // A count that is not the context before (OpenCode's and Gemini CLI's prunable tool output, the
  // API's input tokens): the breakdown of the context is not its breakdown. The check said
  // "Count compared 47,938" with the parts of 153,067.
  const ownCount = Math.abs(event.checkTokens - event.preTokens) >= 0.5;
  const figures: LearnFigure[] = [
    {
      label: `Recorded context of API call ${event.afterApiCall + 1}`,
      value: call.contextTokens,
      unit: 'tokens',
      how: `usage fields summed: input ${fmt(u.inputTokens)} + cache creation ${fmt(u.cacheCreationInputTokens)} + cache read ${fmt(u.cacheReadInputTokens)}`,
    },
    {
      label: 'Simulated context sent',
      value: simulated,
      unit: 'tokens',
      how:
        result.diverged[pos] === 1
          ? 'recorded usage corrected by what earlier simulated events removed'
          : 'the recorded usage: the history is still the log’s',
    },
    {
      label: 'Output of the response',
      value: output,
      unit: 'tokens',
      how:
        outputCounted || output === 0
          ? 'usage.output_tokens: counted (the next request carries it)'
          : 'usage.output_tokens: not counted by this strategy’s trigger (it counts the request’s input)',
    },
    {
      label: 'Pending estimate',
      value: pending,
      unit: 'tokens',
      how: pendingCounted
        ? 'estimate (characters / 4) of the response’s later lines, tool results and the next prompt: counted'
        : 'estimate of the messages after the response: not counted by this strategy’s trigger',
    },
    ...(ownCount
      ? [
          {
            label: 'Context before',
            value: event.preTokens,
            unit: 'tokens' as const,
            how: formatTokenProvenance(event.preSource),
          },
        ]
      : []),
    {
      label: 'Count compared',
      value: event.checkTokens,
      unit: 'tokens',
      how: ownCount ? (event.note ?? 'the strategy’s own count') : formatTokenProvenance(event.preSource),
      strong: true,
    },
    ...(explainer?.thresholdFigures(knobs) ?? [
      {
        label: getThresholdLine(result, event)?.label ?? 'Threshold',
        value: event.thresholdTokens,
        unit: 'tokens' as const,
        strong: true,
      },
    ]),
  ];
  const over = event.checkTokens - event.thresholdTokens;
  const versus = `${over >= 0 ? `passes the threshold, ${fmt(event.thresholdTokens)}, by ${fmt(over)}` : `is ${fmt(-over)} under the threshold ${fmt(event.thresholdTokens)}`}`;
  return step(
    'check',
    'The token check',
    ownCount
      ? `After each API call the agent counts what its rule looks at and compares it with the threshold. At API call ${event.afterApiCall + 1} of the main thread its count, ${fmt(event.checkTokens)}, ${versus}; the context is then ${fmt(event.preTokens)} tokens.`
      : `After each API call the agent ${outputCounted || output === 0 ? 'adds up what its next request will carry' : 'takes the size of the request it just sent (its input, not the answer)'} and compares it with the threshold. At API call ${event.afterApiCall + 1} of the main thread the count, ${fmt(event.checkTokens)}, ${versus}.`,
    { bar: createBar(result, pos, pos + 1, event), figures },
  );
}

export function clearStep(ctx: Context, eventIndex: number, id: string): LearnStep {
  const { result, input } = ctx;
  const event: ReplayEventFields = result.events[eventIndex]!;
  const pos = callPosOf(result, event.afterApiCall);
  const ids = event.clearedToolIds ?? [];
  const replace = event.kind === 'replace';
  const figures: LearnFigure[] = [
    { label: 'Count when it fired', value: event.checkTokens, unit: 'tokens' },
    { label: 'Its threshold', value: event.thresholdTokens, unit: 'tokens' },
    { label: replace ? 'Results replaced' : 'Tool results cleared', value: ids.length, unit: 'count' },
  ];
  if (event.estimatedSavedTokens !== undefined)
    figures.push({
      label: 'Savings, the agent’s estimate',
      value: event.estimatedSavedTokens,
      unit: 'tokens',
      how: 'what the agent compares with its minimum before clearing',
      strong: true,
    });
  const minimum = replace ? undefined : findMinimumKnob(ctx.specs);
  const minValue = minimum ? ctx.knobs[minimum.key] : undefined;
  if (minimum && typeof minValue === 'number') {
    const savings = event.estimatedSavedTokens ?? event.savedTokens ?? 0;
    figures.push({
      label: /min/i.test(minimum.label) ? minimum.label : `Minimum (${minimum.label})`,
      value: minValue,
      unit: 'tokens',
      how: `savings ${fmt(savings)} ${savings >= minValue ? '≥' : '<'} ${fmt(minValue)}: ${savings >= minValue ? 'worth clearing' : 'not worth it'}`,
    });
  }
  figures.push({
    label: 'Tokens removed from the context',
    value: event.savedTokens ?? event.preTokens - event.postTokens,
    unit: 'tokens',
    how: `${fmt(event.preTokens)} before → ${fmt(event.postTokens)} after`,
  });
  if (event.noticeTokens)
    figures.push({ label: 'Notice left in their place', value: event.noticeTokens, unit: 'tokens' });
  return step(
    replace ? 'replace' : 'clear',
    replace ? 'Duplicate file reads replaced' : (ctx.explainer?.clearTitle ?? 'Old tool results cleared'),
    replace
      ? `Before dropping anything the agent replaces repeated reads of the same file by a short notice. At API call ${event.afterApiCall + 1} it replaced ${ids.length} result${ids.length === 1 ? '' : 's'}.`
      : `Before (or instead of) summarizing, old tool results are cleared: their content gives way to a placeholder, the most recent ones are protected, and nothing happens unless the savings pass a minimum. At API call ${event.afterApiCall + 1} it cleared ${ids.length} result${ids.length === 1 ? '' : 's'}.${event.note ? ` (${event.note})` : ''}`,
    {
      id,
      bar: createBar(result, pos, pos + 1, event),
      figures,
      lists: [
        list(
          replace ? 'Replaced results' : 'Cleared tool results',
          ids.map((t) => describeToolResult(input.session, t)),
        ),
      ],
    },
  );
}

/**
 * The clearing's attempt at the focus call (microcompact, `clear_tool_uses`), acting or not: what
 * the run's own selection would take there (`StrategyRun.probeClearing`) and why it did not act.
 */
export function attemptStep(ctx: Context, event: ReplayEventFields, probe: ClearingProbe): LearnStep {
  const { result, input } = ctx;
  const { clearables } = input.prepared;
  const pos = callPosOf(result, event.afterApiCall);
  const rows = (items: readonly number[]) =>
    items.map(
      (i) =>
        `${describeToolResult(input.session, clearables.ids[i]!)} · ${fmt(clearables.estimate[i]!)} tokens`,
    );
  const chosen = new Set(probe.items);
  const kept = probe.considered.filter((i) => !chosen.has(i));
  const verdict = probe.acts ? 'It acts here.' : `It does not act: ${probe.reason}.`;
  return step(
    'clear',
    `${probe.mechanism === 'clear_tool_uses' ? 'The clear_tool_uses edit' : `${probe.mechanism[0]!.toUpperCase()}${probe.mechanism.slice(1)}`} at the compaction’s call`,
    `At API call ${event.afterApiCall + 1}, ${probe.mechanism} looks at ${fmt(probe.considered.length)} eligible tool result${probe.considered.length === 1 ? '' : 's'} still in the history: the most recent are protected, the older ones would give way to a placeholder${probe.minSavings > 0 ? ' if the savings pass the minimum' : ''}. By its own rules it would clear ${fmt(probe.items.length)}, about ${fmt(probe.savings)} tokens${probe.minSavings > 0 ? ` against a minimum of ${fmt(probe.minSavings)}` : ''}. ${verdict}`,
    {
      id: 'attempt',
      bar: createBar(result, pos, pos + 1),
      figures: [
        { label: 'Eligible results in the history', value: probe.considered.length, unit: 'count' },
        { label: 'Would clear', value: probe.items.length, unit: 'count' },
        { label: 'Protected (most recent)', value: kept.length, unit: 'count' },
        {
          label: 'Savings, the agent’s estimate',
          value: probe.savings,
          unit: 'tokens',
          how: 'Σ of the estimates (characters / 4) of the results it would clear',
          strong: true,
        },
        {
          label: 'Minimum savings',
          value: probe.minSavings,
          unit: 'tokens',
          how: probe.passes ? 'passed' : 'not passed',
        },
      ],
      lists: [list('Would clear (oldest first)', rows(probe.items)), list('Protected', rows(kept).reverse())],
      source: probe.source,
    },
  );
}

export function truncateStep(event: ReplayEventFields): LearnStep {
  const from = event.droppedFromEntryIndex;
  const to = event.droppedToEntryIndex;
  const records = from !== undefined && to !== undefined ? to - from + 1 : 0;
  return step(
    'truncate',
    'The truncation',
    `No summary: a range of older messages is dropped whole (never half a tool call and its result), the first exchange is kept, and a notice says something was removed.${event.note ? ` (${event.note})` : ''}`,
    {
      figures: [
        {
          label: 'Records dropped',
          value: records,
          unit: 'count',
          how: from === undefined ? undefined : `records ${from + 1}–${to! + 1}`,
        },
        { label: 'Tokens dropped', value: event.droppedTokens ?? 0, unit: 'tokens', strong: true },
        { label: 'Notice added', value: event.noticeTokens ?? 0, unit: 'tokens' },
        { label: 'Context before', value: event.preTokens, unit: 'tokens' },
        {
          label: 'Context after',
          value: event.postTokens,
          unit: 'tokens',
          how: formatTokenProvenance(event.postSource),
        },
      ],
    },
  );
}
