import type { KnobSpec, KnobValue } from '../strategies/types';
import type { LearnConstant, LearnStepKind } from './types';

// Where each knob acts, read from its spec alone (key, group, label), so a new strategy's knobs
// land on the right step of its walk without a table per strategy. A knob whose step the walk
// does not have (a truncation knob when no truncation fired) is shown at the check, where the
// teacher changes a threshold to make that step appear.

/** Ordered: the first rule whose pattern matches `key group label` wins. */
const PLACEMENT: readonly { step: LearnStepKind; pattern: RegExp }[] = [
  { step: 'restore', pattern: /restor/i },
  { step: 'continuation', pattern: /continuation/i },
  { step: 'prompt', pattern: /custominstruction|prompt/i },
  // Cline's duplicate reads; Gemini CLI's function responses cut to a budget (a replace action).
  { step: 'replace', pattern: /dedup|functionresponse|truncateoutput/i },
  { step: 'truncate', pattern: /truncat/i },
  // Claude Code's microcompact, the API's clear_tool_uses, OpenCode's prune.
  { step: 'clear', pattern: /microcompact|clearatleast|keeptooluses|excludetools|clear|prune/i },
  // Boundary scoring's split search and scores decide the span.
  // Boundary scoring's split search and scores decide the span; so do the kept tails (Gemini
  // CLI's preserved fraction, pi's keepRecentTokens), which set where the summary stops.
  {
    step: 'span',
    pattern:
      /score|search|split|tail|break|topic|errorradius|usermessagebudget|preservefraction|keeprecenttokens/i,
  },
  // Gemini CLI's verification probe is a second request on the summary.
  { step: 'summary', pattern: /session ?memory|preserve|criticaltools|systemcommands|summary|verification/i },
];

/** The step a knob acts at (`check` unless its words say otherwise). */
export function getKnobStep(spec: KnobSpec): LearnStepKind {
  const words = `${spec.key} ${spec.group} ${spec.label}`;
  return PLACEMENT.find((p) => p.pattern.test(words))?.step ?? 'check';
}

/**
 * The knobs of `specs` acting at each step kind present in `steps`; the others at `check`.
 * Values are the effective knobs the walk ran with.
 */
export function placeKnobs(
  specs: readonly KnobSpec[],
  knobs: Record<string, KnobValue>,
  steps: ReadonlySet<LearnStepKind>,
): Map<LearnStepKind, LearnConstant[]> {
  const placed = new Map<LearnStepKind, LearnConstant[]>();
  for (const spec of specs) {
    const wanted = getKnobStep(spec);
    const step = steps.has(wanted) ? wanted : 'check';
    const list = placed.get(step) ?? [];
    list.push({ key: spec.key, label: spec.label, value: knobs[spec.key], source: spec.source, spec });
    placed.set(step, list);
  }
  return placed;
}

/**
 * The knob a clearing's savings must pass (Claude Code's minimum savings, the API's
 * `clear_at_least`): a token knob of the clearing step whose words say minimum or "at least".
 */
export function findMinimumKnob(specs: readonly KnobSpec[]): KnobSpec | undefined {
  return specs.find(
    (s) =>
      s.unit === 'tokens' &&
      getKnobStep(s) === 'clear' &&
      /\bmin|minimum|at ?least/i.test(`${s.key.replace(/([A-Z])/g, ' $1')} ${s.label}`),
  );
}
