// Learn mode's place in the URL: `?learn=<strategy id>&event=<n>&step=<n, from 1>&large=1`, `event`
// the replay event of the compaction walked (absent: the walk's default). Only these four
// parameters are read and written; every other parameter (the shared view's strategy, knobs,
// selection) is left as it is, and history.replaceState keeps the back button for real pages.

interface LearnUrlState {
  strategyId: string;
  /** 0-based here, 1-based in the URL. */
  step: number;
  large: boolean;
  /** Index into the replay's events of the compaction walked; undefined: the walk's default. */
  event?: number;
}

const STRATEGY = 'learn';
const STEP = 'step';
const LARGE = 'large';
const EVENT = 'event';
/** What a strategy id may look like in the URL (the registry decides whether it exists). */
const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The learn state a query string asks for, or undefined when it asks for none. */
export function parseLearnParams(search: string): LearnUrlState | undefined {
  const params = new URLSearchParams(search);
  const strategyId = params.get(STRATEGY);
  if (strategyId === null || !ID_PATTERN.test(strategyId)) return undefined;
  const stepText = params.get(STEP);
  const stepNumber = stepText !== null && /^\d{1,4}$/.test(stepText) ? Number(stepText) : 1;
  const eventText = params.get(EVENT);
  const event = eventText !== null && /^\d{1,6}$/.test(eventText) ? Number(eventText) : undefined;
  return {
    strategyId,
    step: Math.max(0, stepNumber - 1),
    large: params.get(LARGE) === '1',
    ...(event === undefined ? {} : { event }),
  };
}

/** `search` with the learn parameters set (or removed when `state` is undefined), others kept in order. */
export function writeLearnParams(search: string, state: LearnUrlState | undefined): string {
  const params = new URLSearchParams(search);
  params.delete(STRATEGY);
  params.delete(STEP);
  params.delete(LARGE);
  params.delete(EVENT);
  if (state) {
    params.set(STRATEGY, state.strategyId);
    if (state.event !== undefined) params.set(EVENT, String(state.event));
    params.set(STEP, String(state.step + 1));
    if (state.large) params.set(LARGE, '1');
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Puts the learn state in the address bar without a new history entry. */
export function replaceLearnUrl(state: LearnUrlState | undefined): void {
  const { location, history } = window;
  const search = writeLearnParams(location.search, state);
  if (search === location.search) return;
  history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
}
