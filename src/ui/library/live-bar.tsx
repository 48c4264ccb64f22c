import { useQuery, useQueryClient } from '@tanstack/react-query';
import { describeCallScore } from '../../engine/live/forecast-score';
import { formatCount, formatTokensShort } from '../common/format';
import { liveReadingQuery, startLive, stopLive, useLiveStore } from './live';

/**
 * Live mode's line over the session: the context now, this log's auto-compact threshold, the
 * tokens left and about how many calls that is at the recent pace; the last compaction's score.
 * A file that cannot be read keeps the last figures, marked as the last known, and the bar says
 * why (a file gone, HTTP 404, is said as such), never "waiting for the first calls"; nor does a file
 * emptied or cut to less than a line, whose session shown is the one read before.
 */
export function LiveBar() {
  const queryClient = useQueryClient();
  const { source, live, step, bytes, error, gone, skipped, shrank } = useLiveStore();
  const reading = useQuery(liveReadingQuery()).data;
  const forecast = reading?.forecast;
  const score = reading?.score;
  if (!source) return null;
  return (
    <div className="follow-bar" data-testid="follow-bar">
      <button
        type="button"
        className={`btn${live ? ' primary' : ''}`}
        aria-pressed={live}
        data-testid="follow-toggle"
        onClick={() => (live ? stopLive() : startLive(queryClient))}
      >
        {live ? '● Live' : 'Go live'}
      </button>
      {forecast ? (
        <span className="mono" data-testid="follow-forecast" data-last-known={error ? 'true' : 'false'}>
          {error ? 'last known: ' : ''}context now {formatTokensShort(forecast.contextTokens)} · threshold{' '}
          {formatTokensShort(forecast.thresholdTokens)} · left {formatTokensShort(forecast.leftTokens)} ·{' '}
          {forecast.callsLeft === undefined
            ? 'not growing'
            : `~${formatCount(forecast.callsLeft)} calls at this pace`}
        </span>
      ) : error ? null : live && shrank ? (
        // Emptied or cut before its first whole line: the session shown is the one read before
        // (its entries, calls and chart), never "waiting for the first calls" over it.
        <span className="notice" data-testid="follow-shrank">
          The file shrank from {formatCount(shrank.fromBytes)} to {formatCount(shrank.toBytes)} bytes: the
          session below is its last read, read again from its start once a whole line is written
        </span>
      ) : (
        <span className="muted">
          {live ? 'Waiting for the first calls…' : 'Live mode reads the file again every second.'}
        </span>
      )}
      {score && (
        <span className="follow-score" data-testid="follow-score">
          Compaction {describeCallScore(score)}
        </span>
      )}
      {live && step && (
        <span
          className="muted"
          data-testid="follow-step"
          data-reparsed={step.reparsed ? 'true' : 'false'}
          title={
            step.reparsed
              ? `Read again from the start: ${step.reparsed}`
              : 'Only the bytes appended since the last read were read and parsed'
          }
        >
          {formatCount(bytes)} bytes · read{' '}
          <span data-testid="follow-read-bytes">{formatCount(step.readBytes)}</span> bytes
          {step.reparsed ? ` (${step.reparsed})` : ''}, +{formatCount(step.newLines)} lines in{' '}
          {formatCount(step.ms)} ms at {new Date(step.atMs).toLocaleTimeString()}
        </span>
      )}
      {live && skipped && (
        <span className="notice error" data-testid="follow-skipped">
          {skipped.length === 1 ? 'A file of the session' : `${skipped.length} files of the session`} cannot
          be read, left out (the rest is followed): {skipped.join('; ')}
        </span>
      )}
      {error && (
        <span className="notice error" data-testid="follow-error" data-gone={gone ? 'true' : 'false'}>
          {gone ? 'The file is gone' : 'The file cannot be read'}
          {forecast ? ' (the figures are the last read’s)' : ''}: {error}
        </span>
      )}
    </div>
  );
}
