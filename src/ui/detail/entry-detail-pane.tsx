import { TabButton } from '../common/tab-button';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SessionId } from '../../worker/protocol';
import { formatCount, formatDateTime, formatDelta } from '../common/format';
import { entryDetailQuery } from '../queries';
import { useUiStore } from '../store';
import { KIND_TAGS } from '../transcript/transcript-row';
import { BlockView } from './block-view';
import { RawJsonView } from './raw-json-view';
import { VisibleText } from '../common/visible-text';
import { formatOrdinal } from '../../engine/query/numbering';

type Tab = 'blocks' | 'raw';

export function EntryDetailPane({ sessionId }: { sessionId: SessionId }) {
  const entryIndex = useUiStore((s) => s.selectedEntry);
  const [tab, setTab] = useState<Tab>('blocks');
  if (entryIndex === undefined) {
    return (
      <div className="entry-detail empty" data-testid="entry-detail">
        <div className="panel-message muted">Select a row (or a point on the chart) to see the entry.</div>
      </div>
    );
  }
  return (
    <div className="entry-detail" data-testid="entry-detail" data-entry-index={entryIndex}>
      <div className="tabs small-tabs" role="tablist">
        <TabButton selected={tab === 'blocks'} testId="detail-tab-blocks" onSelect={() => setTab('blocks')}>
          Blocks
        </TabButton>
        <TabButton selected={tab === 'raw'} testId="detail-tab-raw" onSelect={() => setTab('raw')}>
          Raw JSON
        </TabButton>
      </div>
      <div className="detail-scroll">
        {tab === 'blocks' ? (
          <EntryBlocks sessionId={sessionId} entryIndex={entryIndex} />
        ) : (
          <RawJsonView sessionId={sessionId} entryIndex={entryIndex} />
        )}
      </div>
    </div>
  );
}

function EntryBlocks({ sessionId, entryIndex }: { sessionId: SessionId; entryIndex: number }) {
  const { data, error } = useQuery(entryDetailQuery(sessionId, entryIndex));
  const selectEntry = useUiStore((s) => s.selectEntry);
  const openCompactionCard = useUiStore((s) => s.openCompactionCard);
  if (error) return <div className="panel-message error">{error.message}</div>;
  if (!data) return <div className="panel-message muted">Loading…</div>;
  const { entry, apiCall } = data;
  const flags = [
    entry.isSidechain && 'sidechain',
    entry.isMeta && 'meta',
    entry.isCompactSummary && 'compact summary',
    entry.isVisibleInTranscriptOnly && 'transcript only',
    entry.isSynthetic && 'synthetic',
    entry.isApiError && 'API error',
  ].filter(Boolean);
  return (
    <>
      <div className="detail-head">
        <span className={`t-kind kind-${data.kind}`}>{KIND_TAGS[data.kind]}</span>
        <span className="mono">
          {entry.type}
          {entry.subtype ? ` · ${entry.subtype}` : ''}
          {entry.detailType ? ` · ${entry.detailType}` : ''}
        </span>
        <span className="muted mono small" data-testid="entry-number">
          {formatOrdinal('entry', entryIndex)} · {data.fileName}:{entry.line}
        </span>
        <span className="muted small">{formatDateTime(entry.timestampMs)}</span>
        {flags.map((f) => (
          <span key={String(f)} className="chip small">
            {f}
          </span>
        ))}
      </div>
      <dl className="kv mono small">
        {entry.uuid && (
          <>
            <dt>uuid</dt>
            <dd>{entry.uuid}</dd>
          </>
        )}
        {entry.agentId && (
          <>
            <dt>agent</dt>
            <dd data-testid="entry-agent">
              {entry.agentId} {data.agentType && <span className="chip small">{data.agentType}</span>}
            </dd>
          </>
        )}
        {entry.model && (
          <>
            <dt>model</dt>
            <dd>{entry.model}</dd>
          </>
        )}
        <dt>estimate</dt>
        <dd title="Claude Code's local estimate: chars/4, images 2,000; ×4/3 safety">
          ~{formatCount(data.estimatedTokens)} tok · ×4/3 = {formatCount(data.estimatedTokensWithSafety)}
        </dd>
        {apiCall && (
          <>
            <dt>API call</dt>
            <dd>
              {formatOrdinal('api-call', apiCall.index)} · context {formatCount(apiCall.contextTokens)} (Δ{' '}
              {formatDelta(apiCall.deltaTokens)}) · in {formatCount(apiCall.usage.inputTokens)} · cache write{' '}
              {formatCount(apiCall.usage.cacheCreationInputTokens)} · cache read{' '}
              {formatCount(apiCall.usage.cacheReadInputTokens)} · out{' '}
              {formatCount(apiCall.usage.outputTokens)}
            </dd>
          </>
        )}
      </dl>
      {data.compactionIndex !== undefined && (
        <button type="button" className="btn small" onClick={() => openCompactionCard(data.compactionIndex)}>
          Open compaction card
        </button>
      )}
      {data.spawnerEntryIndex !== undefined && (
        <button
          type="button"
          className="btn link small"
          onClick={() => selectEntry(data.spawnerEntryIndex, true)}
        >
          ↑ spawned by Task call
        </button>
      )}
      {entry.summaryText && (
        <pre className="text-block">
          <VisibleText text={entry.summaryText} />
        </pre>
      )}
      {data.blocks.map((block, i) => (
        // Blocks have no ids; their order within an entry never changes.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <BlockView key={i} detail={block} />
      ))}
      {data.blocks.length === 0 && !entry.summaryText && (
        <div className="muted small">No content blocks.</div>
      )}
    </>
  );
}
