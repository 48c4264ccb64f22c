// Learn mode's place in the URL: `?learn=<strategy id>&step=<n, from 1>&large=1`. Only these three
// parameters are read and written; every other parameter (the shared view's strategy, knobs,
// selection) is left as it is, and history.replaceState keeps the back button for real pages.

export interface LearnUrlState {
  strategyId: string;
  /** 0-based here, 1-based in the URL. */
  step: number;
  large: boolean;
}

const STRATEGY = 'learn';
const STEP = 'step';
const LARGE = 'large';
/** What a strategy id may look like in the URL (the registry decides whether it exists). */
const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The learn state a query string asks for, or undefined when it asks for none. */
export function parseLearnParams(search: string): LearnUrlState | undefined {
  const params = new URLSearchParams(search);
  const strategyId = params.get(STRATEGY);
  if (strategyId === null || !ID_PATTERN.test(strategyId)) return undefined;
  const stepText = params.get(STEP);
  const stepNumber = stepText !== null && /^\d{1,4}$/.test(stepText) ? Number(stepText) : 1;
  return { strategyId, step: Math.max(0, stepNumber - 1), large: params.get(LARGE) === '1' };
}

/** `search` with the learn parameters set (or removed when `state` is undefined), others kept in order. */
export function writeLearnParams(search: string, state: LearnUrlState | undefined): string {
  const params = new URLSearchParams(search);
  params.delete(STRATEGY);
  params.delete(STEP);
  params.delete(LARGE);
  if (state) {
    params.set(STRATEGY, state.strategyId);
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
