import { memo } from 'react';
import type { FilterKind } from '../../engine/query/entry-kinds';
import type { RowSummary } from '../../worker/protocol';
import { formatClock, formatCount, formatTokensShort } from '../common/format';
import { ReplayRowMark } from '../replay/row-mark';
import { HighlightedText } from '../common/highlighted-text';

export const KIND_TAGS: Record<FilterKind, string> = {
  'user-text': 'USER',
  'assistant-text': 'ASST',
  thinking: 'THINK',
  'tool-call': 'TOOL',
  'tool-result': 'RESULT',
  system: 'SYS',
  attachment: 'ATTACH',
  meta: 'META',
  unknown: '???',
  compaction: 'COMPACT',
};

const STATUS_LABELS = {
  ok: 'ok',
  error: 'error',
  cleared: 'cleared',
  persisted: 'persisted',
  'no-result': 'no result',
} as const;

/** Indent per nesting level of subagents. */
const INDENT_PX = 16;

export const TranscriptRow = memo(function TranscriptRow(props: {
  row: RowSummary;
  selected: boolean;
  onSelect: (entryIndex: number) => void;
  /** The transcript search: its occurrences in the row are marked. */
  search: string;
}) {
  const { row, selected, search } = props;
  return (
    <div
      className={`t-row kind-${row.kind} ${selected ? 'selected' : ''} ${row.depth > 0 ? 'side' : ''} ${row.isMeta ? 'meta' : ''}`}
      data-testid="transcript-row"
      data-entry-index={row.entryIndex}
      data-kind={row.kind}
      data-depth={row.depth}
      data-tool-status={row.toolStatus}
      role="option"
      tabIndex={-1}
      aria-selected={selected}
      onClick={() => props.onSelect(row.entryIndex)}
    >
      <span className="t-kind">{KIND_TAGS[row.kind]}</span>
      <span className="t-time mono">{formatClock(row.timestampMs)}</span>
      <span className="t-text" style={{ paddingLeft: row.depth * INDENT_PX }}>
        {row.depth > 0 && <span className="t-branch">└ </span>}
        {row.failedRequest && (
          <span
            className="t-failed"
            data-testid="failed-request-label"
            title={`Failed request (${row.failedRequest.replace(/_/g, ' ')}): no answer and no usage, so no API call and no context`}
          >
            failed · {row.failedRequest.replace(/_/g, ' ')}
          </span>
        )}
        {row.toolName && row.kind === 'tool-call' && (
          <span className="t-tool">
            <HighlightedText text={row.toolName} search={search} />
          </span>
        )}
        <span className="t-body">
          <HighlightedText
            text={row.kind === 'tool-call' && row.toolName ? stripToolName(row.text, row.toolName) : row.text}
            search={search}
          />
        </span>
        {row.depth === 0 && <ReplayRowMark entryIndex={row.entryIndex} />}
      </span>
      {row.toolStatus && (
        <span
          className={`t-status status-${row.toolStatus}`}
          title={`result: ${STATUS_LABELS[row.toolStatus]}`}
        >
          {STATUS_LABELS[row.toolStatus]}
        </span>
      )}
      <span
        className="t-est mono"
        title={`Claude Code's estimate: ~${formatCount(row.estimatedTokens)} tokens`}
      >
        {row.estimatedTokens > 0 ? `~${formatTokensShort(row.estimatedTokens)}` : ''}
      </span>
      <span
        className="t-ctx mono"
        title={
          row.contextTokens === undefined
            ? undefined
            : row.contextEstimated
              ? 'Estimated context of this API call: it recorded no usage'
              : 'Context tokens of this API call'
        }
      >
        {row.contextTokens === undefined
          ? ''
          : `${row.contextEstimated ? '~' : ''}${formatTokensShort(row.contextTokens)}`}
      </span>
    </div>
  );
});

function stripToolName(text: string, name: string): string {
  return text.startsWith(`${name} `) ? text.slice(name.length + 1) : text;
}

export function PlaceholderRow() {
  return <div className="t-row placeholder" />;
}
