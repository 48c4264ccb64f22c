import { HIDDEN_THINKING_LABELS, HIDDEN_THINKING_NOTES } from '../../engine/query/hidden-thinking';
import type { BlockDetail } from '../../engine/query/entry-detail';
import { formatImagePlaceholder } from '../../engine/query/row-page';
import { formatCount } from '../common/format';
import { useUiStore } from '../store';
import { VisibleText } from '../common/visible-text';

function Truncation({ shown, total }: { shown: number; total: number }) {
  if (total <= shown) return null;
  return (
    <div className="muted small">
      preview: {formatCount(shown)} of {formatCount(total)} chars — the full record is in Raw JSON
    </div>
  );
}

function StatusPill({ status }: { status: string }) {
  return <span className={`t-status status-${status}`}>{status === 'no-result' ? 'no result' : status}</span>;
}

/** One content block, rendered as plain text only (transcript content is untrusted). */
export function BlockView({ detail }: { detail: BlockDetail }) {
  const selectEntry = useUiStore((s) => s.selectEntry);
  const { block, pair } = detail;
  const estimate = <span className="muted small mono">~{formatCount(detail.estimatedTokens)} tok est.</span>;
  switch (block.kind) {
    case 'text':
      return (
        <div className="block" data-block="text">
          <div className="block-head">
            <span className="block-kind">text</span> {estimate}
          </div>
          <pre className="text-block">
            <VisibleText text={block.text} />
          </pre>
          <Truncation shown={block.text.length} total={block.chars} />
        </div>
      );
    case 'thinking':
      return (
        <div className="block thinking" data-block="thinking">
          <div className="block-head">
            <span className="block-kind">thinking</span>{' '}
            {block.hidden && <span className="muted">{HIDDEN_THINKING_LABELS[block.hidden]}</span>} {estimate}
          </div>
          {block.hidden ? (
            <div className="muted">{HIDDEN_THINKING_NOTES[block.hidden]}</div>
          ) : block.text === '' ? (
            <div className="muted">Empty thinking block.</div>
          ) : (
            <pre className="text-block">
              <VisibleText text={block.text} />
            </pre>
          )}
          <Truncation shown={block.text.length} total={block.chars} />
        </div>
      );
    case 'tool-use':
      return (
        <div className="block tool" data-block="tool-use">
          <div className="block-head">
            <span className="block-kind">tool call</span>{' '}
            <b className="mono">
              <VisibleText text={block.name} />
            </b>{' '}
            <span className="muted mono small">{block.id}</span> {estimate}
            {pair && <StatusPill status={pair.status} />}
            {pair?.entryIndex !== undefined && (
              <button
                type="button"
                className="btn link small"
                onClick={() => selectEntry(pair.entryIndex, true)}
              >
                result ({formatCount(pair.resultChars)} chars) →
              </button>
            )}
          </div>
          {block.filePath && (
            <div className="mono small">
              file: <VisibleText text={block.filePath} />
            </div>
          )}
          {block.command && (
            <pre className="text-block command">
              <VisibleText text={block.command} />
            </pre>
          )}
          <pre className="text-block">
            <VisibleText text={block.inputPreview} />
          </pre>
          <Truncation shown={block.inputPreview.length} total={block.inputChars} />
        </div>
      );
    case 'tool-result':
      return (
        <div
          className={`block result ${pair?.status === 'cleared' ? 'cleared' : ''}`}
          data-block="tool-result"
        >
          <div className="block-head">
            <span className="block-kind">tool result</span>{' '}
            <b className="mono">{pair?.toolName ?? 'unknown tool'}</b>{' '}
            <span className="muted mono small">{block.toolUseId}</span> {estimate}
            <StatusPill status={pair?.status ?? (block.isError ? 'error' : 'ok')} />
            {pair?.entryIndex !== undefined && (
              <button
                type="button"
                className="btn link small"
                onClick={() => selectEntry(pair.entryIndex, true)}
              >
                ← call
              </button>
            )}
          </div>
          {pair?.status === 'cleared' && (
            <div className="cleared-note">
              Cleared by microcompact: the model no longer saw this output afterwards.
            </div>
          )}
          {block.persisted && (
            <div className="muted small">Persisted to disk: the model saw only this stub.</div>
          )}
          {block.images > 0 && (
            <div className="image-placeholder">{formatImagePlaceholder(block.images)}</div>
          )}
          <pre className="text-block">
            <VisibleText text={block.text} />
          </pre>
          <Truncation shown={block.text.length} total={block.chars} />
        </div>
      );
    case 'image':
    case 'document':
      return (
        <div className="block" data-block={block.kind}>
          <div className="image-placeholder">
            {formatImagePlaceholder(1, block.kind)}{' '}
            <span className="muted small mono">
              {block.mediaType} · {formatCount(block.base64Chars)} base64 chars
            </span>
          </div>
        </div>
      );
    case 'other':
      return (
        <div className="block" data-block="other">
          <span className="block-kind">{block.type}</span>{' '}
          <span className="muted small">{formatCount(block.chars)} chars</span>
        </div>
      );
  }
}
