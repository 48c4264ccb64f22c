import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMaskText, SECRET_KIND_LABELS } from '../../engine/redact/secret-kinds';
import type { SecretGroup } from '../../engine/redact/session-secrets';
import { getEngineClient } from '../../worker/engine-client';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { VisibleText } from '../common/visible-text';
import { useRedaction, useRedactionStore } from '../export/redaction-store';
import { sessionKey } from '../queries';
import { useUiStore } from '../store';
import '../export/export.css';

// The Secrets tab: what the redaction pass masks in every export and summarizer request, with
// where each secret occurs, and a toggle to send one as is. The page holds masked previews and
// ids only: the worker never sends a secret's text.

function secretsQuery(sessionId: SessionId) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'secrets'],
    queryFn: ({ signal }) => getEngineClient().request({ kind: 'secrets-find', sessionId }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function SecretsPanel({ sessionId }: { sessionId: SessionId }) {
  const { data, error } = useQuery(secretsQuery(sessionId));
  const { unmasked } = useRedaction(sessionId);
  if (error) return <div className="panel-message error">{error.message}</div>;
  if (!data) return <div className="panel-message muted">Scanning the transcript for secrets…</div>;
  return (
    <div className="secrets-panel" data-testid="secrets-panel">
      <div className="panel-note">
        {data.groups.length === 0
          ? 'No secrets found.'
          : `${formatCount(data.groups.length)} secret${data.groups.length === 1 ? '' : 's'} (${formatCount(data.total)} occurrences), masked in every export and in every summarizer request. ${unmasked.length > 0 ? `${formatCount(unmasked.length)} unmasked.` : ''}`}
      </div>
      <ul className="secrets-list">
        {data.groups.map((g) => (
          <SecretRow key={g.id} sessionId={sessionId} group={g} unmasked={unmasked.includes(g.id)} />
        ))}
      </ul>
    </div>
  );
}

function SecretRow({
  sessionId,
  group,
  unmasked,
}: {
  sessionId: SessionId;
  group: SecretGroup;
  unmasked: boolean;
}) {
  const toggle = useRedactionStore((s) => s.toggle);
  const selectEntry = useUiStore((s) => s.selectEntry);
  const first = group.findings[0];
  return (
    <li
      className={`secret-row ${unmasked ? 'unmasked' : ''}`}
      data-testid="secret-row"
      data-kind={group.kind}
    >
      <div className="secret-head">
        <span className="chip small">{SECRET_KIND_LABELS[group.kind]}</span>
        <span className="mono small muted">
          {group.hint} ({formatCount(group.chars)} chars) → {getMaskText(group.kind)}
        </span>
        <label className="small secret-toggle">
          <input
            type="checkbox"
            checked={unmasked}
            data-testid="secret-unmask"
            onChange={() => toggle(sessionId, group.id)}
          />{' '}
          unmask
        </label>
      </div>
      <div className="mono small secret-preview">
        <VisibleText text={group.preview} />
      </div>
      {first && (
        <div className="small muted">
          <button type="button" className="btn link" onClick={() => selectEntry(first.entryIndex, true)}>
            line {formatCount(first.line)}
          </button>{' '}
          <span className="mono">{first.path}</span>
          {group.count > 1 ? ` and ${formatCount(group.count - 1)} more` : ''}
        </div>
      )}
    </li>
  );
}
