import type { Restoration } from '../compact/restore';
import { getKeepRecentCut, getSafeCut, isSafeCut } from '../simulation/cuts';
import {
  CLEARABLE_DOCUMENT,
  CLEARABLE_IMAGE,
  CLEARABLE_THINKING,
  PLACEHOLDER_TOKENS,
} from '../simulation/prepared';
import { lowerBound } from '../simulation/search';
import { getPositionFacts } from '../simulation/turns';
import type { Action, StepView, ToolResult } from './api';
import type { ReplayView, StrategyAction } from './types';

// The public API's view and actions (api.ts) over the engine's (types.ts): what a custom
// strategy sees of a step, and its answer checked and turned into the replay's actions. Every
// refusal is a `CustomStrategyError` saying which action and why: the replay never sees a range
// it would refuse, and a strategy that answers too much is stopped here.

/** A custom strategy broke a rule of the API, threw, or ran out of its limits. */
export class CustomStrategyError extends Error {
  override readonly name = 'CustomStrategyError';
}

/** Ours (a step's answer the page can still show): more actions in one step is an error. */
const MAX_ACTIONS_PER_STEP = 100;
/** Ours: a note longer than this is an error (it is shown on an event card). */
const MAX_NOTE_CHARS = 2_000;

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

const KIND_NAMES: Record<number, string> = {
  [CLEARABLE_IMAGE]: 'image',
  [CLEARABLE_DOCUMENT]: 'document',
  [CLEARABLE_THINKING]: 'thinking',
};

/** The public view of one step, read lazily from the engine's (valid during the step only). */
export function createStepView(view: ReplayView, callCount: number): StepView {
  const { prepared } = view;
  const { clearables, toolNames } = prepared;
  let results: ToolResult[] | undefined;
  return {
    call: view.callPos,
    callCount,
    turn: lowerBound(getPositionFacts(prepared).userTurnPos, view.boundaryPos),
    contextTokens: view.contextTokens,
    usageTokens: view.usageTokens,
    clearedTokens: view.clearedTokens,
    manual: view.manual !== undefined,
    liveFrom: view.liveFromPos,
    boundary: view.boundaryPos,
    results: () => {
      if (!results) {
        results = [];
        for (let i = view.clearableFrom; i < view.clearableTo; i++) {
          const tool = clearables.tool[i]!;
          results.push(
            Object.freeze({
              id: i,
              tool: tool >= 0 ? (toolNames[tool] ?? 'tool') : (KIND_NAMES[tool] ?? 'tool'),
              tokens: clearables.tokens[i]!,
              turn: clearables.turn[i]!,
              position: clearables.pos[i]!,
              cleared: view.isCleared(i),
            }),
          );
        }
        Object.freeze(results);
      }
      return results;
    },
    tokensBetween: (from, to) => view.getLiveTokens(clampPos(view, from, 'from'), clampPos(view, to, 'to')),
    keepRecentFrom: (tokens) =>
      getKeepRecentCut(prepared, checkNumber(tokens, 'keepRecentFrom'), view.liveFromPos, view.boundaryPos),
    safeCut: (position) =>
      getSafeCut(prepared, checkNumber(position, 'safeCut'), view.liveFromPos, view.boundaryPos),
  };
}

function checkNumber(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x))
    throw new CustomStrategyError(`${what}: expected a finite number, got ${describeValue(x)}`);
  return x;
}

function clampPos(view: ReplayView, pos: unknown, what: string): number {
  return Math.min(
    Math.max(Math.round(checkNumber(pos, `tokensBetween ${what}`)), view.liveFromPos),
    view.boundaryPos,
  );
}

function describeValue(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (Array.isArray(x)) return `an array of ${x.length}`;
  return x === null ? 'null' : typeof x === 'object' ? 'an object' : String(x);
}

/** What a threshold the event card names defaults to: the strategy's first trigger line. */
interface ActionContext {
  view: ReplayView;
  triggerTokens: number;
  label: string;
}

/** The step's answer checked and converted; throws a `CustomStrategyError` naming the action and the rule. */
export function toStrategyActions(answer: unknown, ctx: ActionContext): StrategyAction[] {
  if (answer === undefined || answer === null) return [];
  if (!Array.isArray(answer))
    throw new CustomStrategyError(`step returned ${describeValue(answer)}: expected an array of actions`);
  if (answer.length > MAX_ACTIONS_PER_STEP)
    throw new CustomStrategyError(
      `step returned ${answer.length.toLocaleString('en-US')} actions: the limit is ${MAX_ACTIONS_PER_STEP} a step`,
    );
  return answer.map((a, i) => toAction(a as Action, i, ctx));
}

function toAction(a: Action, i: number, ctx: ActionContext): StrategyAction {
  const where = `action ${i + 1}`;
  if (typeof a !== 'object' || a === null) throw new CustomStrategyError(`${where} is ${describeValue(a)}`);
  const note = checkNote(a.note, where);
  const { view } = ctx;
  const checkTokens = view.usageTokens;
  const thresholdTokens = ctx.triggerTokens;
  switch (a.kind) {
    case 'clear':
    case 'replace': {
      const items = checkResults(a.results, `${where} (${a.kind})`, view);
      if (a.kind === 'replace') {
        const noticeTokens = checkTokenCount(a.noticeTokens, `${where} (replace) noticeTokens`);
        return { kind: 'replace', items, noticeTokens, checkTokens, thresholdTokens, note };
      }
      const placeholderTokens =
        a.placeholderTokens === undefined
          ? PLACEHOLDER_TOKENS
          : checkTokenCount(a.placeholderTokens, `${where} (clear) placeholderTokens`);
      const { clearables } = view.prepared;
      const estimatedSavedTokens = items.reduce((s, j) => s + clearables.estimate[j]!, 0);
      return {
        kind: 'clear',
        items,
        placeholderTokens,
        estimatedSavedTokens,
        checkTokens,
        thresholdTokens,
        note,
      };
    }
    case 'truncate': {
      const fromPos = checkPosition(a.from, `${where} (truncate) from`, view);
      const toPos = checkPosition(a.to, `${where} (truncate) to`, view);
      if (fromPos >= toPos)
        throw new CustomStrategyError(`${where} (truncate): from ${fromPos} is not before to ${toPos}`);
      for (const [p, name] of [
        [fromPos, 'from'],
        [toPos, 'to'],
      ] as const)
        if (!isSafeCut(view.prepared, p, view.boundaryPos))
          throw new CustomStrategyError(
            `${where} (truncate): ${name} ${p} splits a tool call from its result (view.safeCut gives one that does not)`,
          );
      const noticeTokens =
        a.noticeTokens === undefined
          ? 0
          : checkTokenCount(a.noticeTokens, `${where} (truncate) noticeTokens`);
      return { kind: 'truncate', fromPos, toPos, noticeTokens, checkTokens, thresholdTokens, note };
    }
    case 'summarize': {
      let keepFromPos: number | undefined;
      if (a.keepFrom !== undefined) {
        keepFromPos = checkPosition(a.keepFrom, `${where} (summarize) keepFrom`, view);
        if (!isSafeCut(view.prepared, keepFromPos, view.boundaryPos))
          throw new CustomStrategyError(
            `${where} (summarize): keepFrom ${keepFromPos} splits a tool call from its result (view.keepRecentFrom or view.safeCut give one that does not)`,
          );
        // Keeping everything, or nothing: a full summary.
        if (keepFromPos <= view.liveFromPos || keepFromPos >= view.boundaryPos) keepFromPos = undefined;
      }
      const summaryTokens =
        a.summaryTokens === undefined
          ? undefined
          : checkTokenCount(a.summaryTokens, `${where} (summarize) summaryTokens`);
      const trigger = view.manual ? 'manual' : 'auto';
      return {
        kind: 'summarize',
        mechanism: keepFromPos === undefined ? 'full' : 'partial',
        trigger,
        checkTokens,
        thresholdTokens:
          a.thresholdTokens === undefined
            ? thresholdTokens
            : checkTokenCount(a.thresholdTokens, `${where} (summarize) thresholdTokens`),
        restoration: NO_RESTORATION,
        ...(keepFromPos === undefined ? {} : { keepFromPos, keepDirection: 'up-to' as const }),
        ...(summaryTokens === undefined ? {} : { summaryTokens, summarySource: 'supplied' as const }),
        continuation: { format: 'v2.1.68', auto: trigger === 'auto', partial: keepFromPos !== undefined },
        requestVariant: keepFromPos === undefined ? 'full' : 'partial',
        customInstructions: view.manual?.customInstructions,
        note: note ?? `${ctx.label} summarized the history`,
      };
    }
    default:
      throw new CustomStrategyError(
        `${where} has kind ${describeValue((a as { kind?: unknown }).kind)}: expected clear, replace, truncate or summarize`,
      );
  }
}

function checkNote(note: unknown, where: string): string | undefined {
  if (note === undefined) return undefined;
  if (typeof note !== 'string')
    throw new CustomStrategyError(`${where}: note is ${describeValue(note)}, not text`);
  if (note.length > MAX_NOTE_CHARS)
    throw new CustomStrategyError(
      `${where}: note of ${note.length.toLocaleString('en-US')} characters (the limit is ${MAX_NOTE_CHARS.toLocaleString('en-US')})`,
    );
  return note;
}

function checkTokenCount(x: unknown, what: string): number {
  const n = checkNumber(x, what);
  if (n < 0) throw new CustomStrategyError(`${what}: ${n} is negative`);
  return n;
}

function checkPosition(x: unknown, what: string, view: ReplayView): number {
  const n = checkNumber(x, what);
  if (!Number.isInteger(n) || n < view.liveFromPos || n > view.boundaryPos)
    throw new CustomStrategyError(
      `${what}: ${n} is not a position of the history [${view.liveFromPos}, ${view.boundaryPos}]`,
    );
  return n;
}

function checkResults(ids: unknown, what: string, view: ReplayView): number[] {
  if (!Array.isArray(ids))
    throw new CustomStrategyError(`${what}: results is ${describeValue(ids)}, not an array of ids`);
  const span = view.clearableTo - view.clearableFrom;
  if (ids.length > span)
    throw new CustomStrategyError(
      `${what}: ${ids.length.toLocaleString('en-US')} results, but the history holds ${span.toLocaleString('en-US')}`,
    );
  const seen = new Set<number>();
  const items: number[] = [];
  for (const id of ids) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < view.clearableFrom || id >= view.clearableTo)
      throw new CustomStrategyError(
        `${what}: ${describeValue(id)} is not the id of a result the history holds (view.results())`,
      );
    // Already cleared, or named twice: nothing more to take.
    if (view.isCleared(id) || seen.has(id)) continue;
    seen.add(id);
    items.push(id);
  }
  return items;
}
