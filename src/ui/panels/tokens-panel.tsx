import { at } from '../../engine/assert';
import { useQuery } from '@tanstack/react-query';
import type { SessionId, TokenTable } from '../../worker/protocol';
import { formatClock, formatCount, formatDelta } from '../common/format';
import { VirtualList } from '../common/virtual-list';
import { tokenTableQuery } from '../queries';
import { useUiStore } from '../store';

const ROW_HEIGHT_PX = 20;

export function TokensPanel({ sessionId }: { sessionId: SessionId }) {
  const { data, error } = useQuery(tokenTableQuery(sessionId));
  const selectEntry = useUiStore((s) => s.selectEntry);
  if (error) return <div className="panel-message error">{error.message}</div>;
  if (!data) return <div className="panel-message muted">Computing…</div>;
  const n = data.callIndex.length;
  const last = n - 1;
  return (
    <div className="tokens-panel" data-testid="tokens-panel">
      <p className="panel-note">
        <b>est.</b> is Claude Code's own local count (chars/4, images 2,000, ×4/3) of the messages;{' '}
        <b>real</b> is what the API reported for each main-conversation call. The estimate sees messages only,
        not the system prompt, tools or memory, so real runs higher.
        {n > 0 && (
          <>
            {' '}
            Last call: real <b className="mono">{formatCount(data.contextTokens[last])}</b> vs est.{' '}
            <b className="mono">{formatCount(data.estimatedContextTokens[last])}</b> (gap{' '}
            <span className="mono">
              {formatDelta(at(data.contextTokens, last) - at(data.estimatedContextTokens, last))}
            </span>
            ).
          </>
        )}
        <span className="tok-narrow-hint" data-testid="tok-narrow-hint">
          {' '}
          Time, input, cache and output columns: widen the panel (drag its left edge).
        </span>
      </p>
      <div className="tok-row tok-header mono">
        <span title="API call number, as in “API call 12” elsewhere">#</span>
        <span>time</span>
        <span title="Context tokens the API reported">real</span>
        <span title="Claude Code estimate of all messages since the last compaction">est.</span>
        <span title="Change in real context since the previous call">Δ real</span>
        <span title="Estimate of the messages added since the previous call">Δ est.</span>
        <span title="real Δ − est. Δ">gap</span>
        <span>in</span>
        <span title="cache_creation_input_tokens">c.write</span>
        <span title="cache_read_input_tokens">c.read</span>
        <span>out</span>
      </div>
      <VirtualList
        count={n}
        rowHeightPx={ROW_HEIGHT_PX}
        className="tokens-list"
        testId="tokens-list"
        ariaLabel="Tokens of each API call"
        renderRow={(i) => <TokenRow table={data} row={i} onSelect={(e) => selectEntry(e, true)} />}
      />
      {n === 0 && <div className="panel-message muted">No API calls with usage.</div>}
    </div>
  );
}

function TokenRow({
  table,
  row,
  onSelect,
}: {
  table: TokenTable;
  row: number;
  onSelect: (entry: number) => void;
}) {
  const delta = at(table.deltaTokens, row);
  const estDelta = at(table.estimatedDeltaTokens, row);
  const gap = Number.isFinite(delta) ? delta - estDelta : Number.NaN;
  return (
    <div
      className="tok-row mono"
      data-testid="token-row"
      onClick={() => onSelect(at(table.firstEntryIndex, row))}
    >
      <span className="muted">{(table.callIndex[row] ?? row) + 1}</span>
      <span className="muted">{formatClock(table.timestampMs[row])}</span>
      <span>{formatCount(table.contextTokens[row])}</span>
      <span className="est">{formatCount(table.estimatedContextTokens[row])}</span>
      <span className={delta < 0 ? 'neg' : ''}>{formatDelta(delta)}</span>
      <span className="est">{formatDelta(estDelta)}</span>
      <span className={Math.abs(gap) > 5_000 ? 'gap-big' : 'muted'}>{formatDelta(gap)}</span>
      <span className="muted">{formatCount(table.inputTokens[row])}</span>
      <span className="muted">{formatCount(table.cacheCreationInputTokens[row])}</span>
      <span className="muted">{formatCount(table.cacheReadInputTokens[row])}</span>
      <span className="muted">{formatCount(table.outputTokens[row])}</span>
    </div>
  );
}
