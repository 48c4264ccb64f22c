import { type CompactionForecast, computeForecast } from '../../engine/library/forecast';
import type { LibraryRow } from '../../engine/library/library-row';
import {
  type CallScore,
  type ForecastTrack,
  noteForecast,
  scoreLanding,
} from '../../engine/live/forecast-score';

// What live mode's bar shows after each step (live.ts), apart from the step's timing: the forecast
// from the grown session, the forecasts of the stretch since the last compaction, and the latest
// compaction seen landing, scored against them as `watch` scores it (engine/live/forecast-score.ts).

/**
 * What live mode read of the grown session: its row, the forecast made from it, the forecasts
 * since the last compaction, and the latest compaction seen landing against them. An async
 * result: in the query cache (`liveReadingQuery`), written by each step; the bar reads it.
 */
export interface LiveReading {
  row: LibraryRow;
  forecast?: CompactionForecast;
  track: ForecastTrack;
  score?: CallScore;
}

/** Compactions of a row, of every kind: one more than the last step's is one that landed. */
function countCompactions(row: LibraryRow): number {
  return row.compactions.auto + row.compactions.manual + row.compactions.truncated;
}

/**
 * The reading after a step. The first step, and one that read a file from its start again
 * because it shrank or was replaced (`restarted`), start over: the compactions the file holds
 * then were not seen landing, no forecast was made for them (a replaced file's compaction scored
 * against the cut session's forecast said "+75 calls"). Otherwise a compaction that came since
 * the last step is scored against the forecasts of its stretch.
 */
export function nextReading(
  before: LiveReading | undefined,
  row: LibraryRow,
  autoCompactTokens: number | undefined,
  restarted: boolean,
): LiveReading {
  const forecast = computeForecast(row, autoCompactTokens);
  const noted =
    forecast?.predictedAtCall === undefined
      ? undefined
      : { atCall: row.apiCalls, predictedAtCall: forecast.predictedAtCall };
  if (!before || restarted) return { row, forecast, track: noteForecast({}, noted) };
  if (countCompactions(row) > countCompactions(before.row))
    return {
      row,
      forecast,
      score: scoreLanding(before.track, row.callsBeforeLastCompact),
      track: noteForecast({}, noted),
    };
  return { row, forecast, score: before.score, track: noteForecast(before.track, noted) };
}
