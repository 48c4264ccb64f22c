import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { markHiddenChars } from '../common/visible-text';
import { openHandleFiles } from './open-handles';
import { forgetRecentFile, isRecentFilesSupported, listRecentFiles, type RecentFile } from './recent-files';

// The start page's recent files (recent-files.ts): the last session reopened with one click, the
// others below (a single file can then be followed, open-handles.ts). Not shown where the browser keeps no file handles, or when there are none.

const when = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

export function RecentFilesList() {
  const queryClient = useQueryClient();
  const [list, setList] = useState<RecentFile[]>([]);
  useEffect(() => {
    let live = true;
    void listRecentFiles().then((l) => {
      if (live) setList(l);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!isRecentFilesSupported() || list.length === 0) return null;
  const open = (recent: RecentFile) => void openHandleFiles(queryClient, recent.label, recent.files);
  const [last, ...older] = list;
  return (
    <section className="recent-files" data-testid="recent-files" aria-label="Recent files">
      <h2>Recent files</h2>
      <button
        type="button"
        className="btn primary"
        data-testid="reopen-last"
        onClick={() => open(last!)}
        title={markHiddenChars(last!.label)}
      >
        Reopen {markHiddenChars(last!.label)}
      </button>{' '}
      <span className="muted small">{when(last!.openedAtMs)}</span>
      {older.length > 0 && (
        <ul>
          {older.map((r) => (
            <li key={r.id} data-testid="recent-file">
              <button
                type="button"
                className="btn link"
                onClick={() => open(r)}
                title={markHiddenChars(r.label)}
              >
                {markHiddenChars(r.label)}
              </button>{' '}
              <span className="muted small">{when(r.openedAtMs)}</span>{' '}
              <button
                type="button"
                className="btn link muted"
                aria-label={`Forget ${markHiddenChars(r.label)}`}
                onClick={() =>
                  void forgetRecentFile(r.id).then(() => setList((l) => l.filter((x) => x.id !== r.id)))
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
