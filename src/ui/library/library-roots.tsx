import { type ReactNode, useState } from 'react';
import { formatCount } from '../common/format';
import './library-roots.css';
import type { LibraryRoot } from './library-queries';
import type { LibrarySession } from './library-store';
import { openDirectoryHandle, removeRoot } from './open-folder';

// The library's folders (issue 24 item 7: several roots listed at once): each with its sessions'
// count and a button that takes it out of the list; a folder listed from the last visit whose files
// are not open has its "Reopen" button (through its kept handle, else the folder input).

export function LibraryRoots({
  roots,
  sessions,
  onReopen,
  children,
}: {
  roots: readonly LibraryRoot[];
  sessions: readonly LibrarySession[];
  onReopen: () => void;
  /** Drawn at the end of the folders' line (the library's actions over all of them). */
  children?: ReactNode;
}) {
  const [reopenError, setReopenError] = useState<string>();
  const counts = new Map<string, number>();
  for (const s of sessions) counts.set(s.root, (counts.get(s.root) ?? 0) + 1);
  const closed = roots.filter((r) => !r.filesOpen);
  const reopen = (root: LibraryRoot) => {
    if (!root.handle) return onReopen();
    setReopenError(undefined);
    openDirectoryHandle(root.handle).catch((e: unknown) =>
      setReopenError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <>
      <div className="library-roots-line">
        <ul className="library-roots" aria-label="Folders listed" data-testid="library-roots">
          {roots.map((r) => (
            <li
              key={r.id}
              className="library-root"
              data-testid="library-root"
              data-root={r.id}
              data-open={r.filesOpen}
            >
              <span
                className="library-root-name"
                title={r.id === r.name ? r.name : `${r.name} (listed as ${r.id})`}
              >
                {r.id}
              </span>
              <span className="muted library-root-count" data-testid="library-root-count">
                {' '}
                · {formatCount(counts.get(r.id) ?? 0)} {counts.get(r.id) === 1 ? 'session' : 'sessions'}
                {r.filesOpen ? '' : ' · not open'}
              </span>
              <button
                type="button"
                className="library-root-remove"
                aria-label={`Remove ${r.id} from the library`}
                title={`Remove ${r.id} from the library (its files are not touched)`}
                data-testid="library-root-remove"
                onClick={() => removeRoot(r.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        {children}
      </div>
      {closed.length > 0 && (
        <div className="library-scan" data-testid="library-restored">
          <span>Listed from the last visit; the files are not open.</span>
          {closed.map((r) => (
            <button
              key={r.id}
              type="button"
              className="btn"
              onClick={() => reopen(r)}
              data-testid="library-reopen"
              data-root={r.id}
            >
              Reopen {r.id}
            </button>
          ))}
          {reopenError && (
            <span className="library-error" role="alert">
              {reopenError}
            </span>
          )}
        </div>
      )}
    </>
  );
}
