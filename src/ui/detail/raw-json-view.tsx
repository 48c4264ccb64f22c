import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SessionId } from '../../worker/protocol';
import { formatBytes, formatCount } from '../common/format';
import { rawEntryQuery } from '../queries';
import { VisibleText } from '../common/visible-text';

/** Above this many characters, the view shows a prefix until asked for all (1 MB base64 lines exist). */
const RAW_DISPLAY_CHARS = 200_000;

export function RawJsonView({ sessionId, entryIndex }: { sessionId: SessionId; entryIndex: number }) {
  const { data, error, isPending } = useQuery(rawEntryQuery(sessionId, entryIndex));
  const [showAll, setShowAll] = useState(false);
  if (error) return <div className="panel-message error">Could not read the record: {error.message}</div>;
  if (isPending || !data) return <div className="panel-message muted">Reading…</div>;
  const cut = !showAll && data.text.length > RAW_DISPLAY_CHARS;
  return (
    <div className="raw-json-wrap">
      <div className="muted small mono">
        {formatBytes(data.lengthBytes)} on disk{data.isJson ? '' : ' · not valid JSON, shown as is'}
        {cut && (
          <>
            {' '}
            · showing {formatCount(RAW_DISPLAY_CHARS)} of {formatCount(data.text.length)} chars{' '}
            <button type="button" className="btn link small" onClick={() => setShowAll(true)}>
              show all
            </button>
          </>
        )}
      </div>
      <pre className="raw-json mono" data-testid="raw-json">
        <VisibleText text={cut ? data.text.slice(0, RAW_DISPLAY_CHARS) : data.text} />
      </pre>
    </div>
  );
}
