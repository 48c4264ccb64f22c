import { useQueryClient } from '@tanstack/react-query';
import { formatCount, formatTokensShort } from '../common/format';
import { startFollowing, stopFollowing, useFollowStore } from './follow';

/**
 * Live mode's line over the session: the context now, this log's auto-compact threshold, the
 * tokens left and about how many calls that is at the recent pace; the last forecast's score.
 */
export function FollowBar() {
  const queryClient = useQueryClient();
  const { source, following, forecast, score, step, bytes, error } = useFollowStore();
  if (!source) return null;
  return (
    <div className="follow-bar" data-testid="follow-bar">
      <button
        type="button"
        className={`btn${following ? ' primary' : ''}`}
        aria-pressed={following}
        data-testid="follow-toggle"
        onClick={() => (following ? stopFollowing() : startFollowing(queryClient))}
      >
        {following ? '● Following' : 'Follow'}
      </button>
      {forecast ? (
        <span className="mono" data-testid="follow-forecast">
          context now {formatTokensShort(forecast.contextTokens)} · threshold{' '}
          {formatTokensShort(forecast.thresholdTokens)} · left {formatTokensShort(forecast.leftTokens)} ·{' '}
          {forecast.callsLeft === undefined
            ? 'not growing'
            : `~${formatCount(forecast.callsLeft)} calls at this pace`}
        </span>
      ) : (
        <span className="muted">
          {following ? 'Waiting for the first calls…' : 'Follow reads the file again every second.'}
        </span>
      )}
      {score && (
        <span className="follow-score" data-testid="follow-score">
          Compaction fired after call {formatCount(score.firedAtCall)}; forecast said{' '}
          {formatCount(score.predictedAtCall)} ({score.firedAtCall - score.predictedAtCall >= 0 ? '+' : ''}
          {score.firedAtCall - score.predictedAtCall} calls)
        </span>
      )}
      {following && step && (
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
      {error && <span className="notice error">{error}</span>}
    </div>
  );
}
