// One definition of how a real compaction scores against the forecasts made before it, in calls,
// for the page's live bar and `compactlab watch` (docs/live-and-statusline.md#scoring-a-forecast).
// Two forecasts, both kept because they answer different questions:
// - the first forecast that named a call after the previous compaction (or after following
//   began, or after the file was replaced): made furthest ahead, the harder test of the pace;
// - the last one before the compaction: the closest, which shows whether the threshold was right
//   (a forecast one call ahead of a compaction is right about the pace by construction).
// A compaction read without being seen landing (the first read of a file, a file replaced) is
// never scored: no forecast was made for it.

/** A forecast of the main-thread call an auto-compaction fires after. */
export interface CallForecast {
  /** The call count when the forecast was made. */
  atCall: number;
  /** The call (1-based count) it should fire after. */
  predictedAtCall: number;
}

/** The forecasts of one stretch between compactions: its first that named a call, and its last. */
export interface ForecastTrack {
  first?: CallForecast;
  last?: CallForecast;
}

/** A real compaction against the forecasts made before it. */
export interface CallScore {
  /** Main-thread calls before the compaction. */
  firedAfterCall: number;
  first?: CallForecast;
  last?: CallForecast;
}

/** The track with this forecast noted (a forecast without a call, the context not growing: unchanged). */
export function noteForecast(track: ForecastTrack, forecast: CallForecast | undefined): ForecastTrack {
  if (!forecast) return track;
  return { first: track.first ?? forecast, last: forecast };
}

/** The score of a compaction seen landing after `firedAfterCall` calls; its stretch's track ends. */
export function scoreLanding(track: ForecastTrack, firedAfterCall: number): CallScore {
  return {
    firedAfterCall,
    ...(track.first && { first: track.first }),
    ...(track.last && { last: track.last }),
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** `+3 calls`, `−2 calls`: how far after (+) or before (−) the forecast it fired. */
function miss(fired: number, predicted: number): string {
  const d = fired - predicted;
  return `${d >= 0 ? '+' : '−'}${fmt(Math.abs(d))} call${Math.abs(d) === 1 ? '' : 's'}`;
}

/**
 * The score in words, the same in the page and the terminal: "fired after call 87; first forecast
 * (at call 48) said 66 (+21 calls), last (at call 86) said 87 (+0 calls)".
 */
export function describeCallScore(s: CallScore): string {
  const head = `fired after call ${fmt(s.firedAfterCall)}`;
  const { first, last } = s;
  if (!first || !last) return `${head}; no forecast named a call before it`;
  const said = (f: CallForecast) =>
    `(at call ${fmt(f.atCall)}) said ${fmt(f.predictedAtCall)} (${miss(s.firedAfterCall, f.predictedAtCall)})`;
  if (first.atCall === last.atCall && first.predictedAtCall === last.predictedAtCall)
    return `${head}; the one forecast ${said(first)}`;
  return `${head}; first forecast ${said(first)}, last ${said(last)}`;
}
