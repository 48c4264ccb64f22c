import { ShortcutsButton } from '../help/shortcuts-overlay';
import { markHiddenChars } from '../common/visible-text';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { LoadFile } from '../../worker/protocol';
import { cancelLoad, describeFiles, loadSession } from '../load/load-session';
import { fetchSampleFiles } from '../load/sample';
import { LearnButton } from '../learn/learn-button';
import { ExportMenu } from '../export/export-menu';
import { setLiveSource } from '../library/live';
import { FolderButtons } from '../library/folder-buttons';
import { fromDrop, isSeveralSessions, openLibrary } from '../library/open-folder';
import { getFilePicker, openPickedFiles } from '../load/open-handles';
import { useUiStore } from '../store';
import { LoadProgress } from './load-progress';
import { PasteDialog } from './paste-dialog';
import { ThemeToggle } from './theme-toggle';

/** Files from an <input> or a drop, named by their relative path when a folder was given. */
function toLoadFiles(files: Iterable<File>) {
  return Array.from(files, (file) => ({ name: file.webkitRelativePath || file.name, blob: file as Blob }));
}

export function TopBar() {
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [pasteOpen, setPasteOpen] = useState(false);
  const loading = useUiStore((s) => s.loading);
  const currentLabel = useUiStore((s) => s.currentLabel);
  const notice = useUiStore((s) => s.notice);
  const dismissNotice = useUiStore((s) => s.dismissNotice);

  /** A load that cannot be followed: the session followed before is not this one. */
  const load = (label: string, prepare: (signal: AbortSignal) => Promise<LoadFile[]>) => {
    setLiveSource(undefined);
    void loadSession(queryClient, label, prepare, { show: true });
  };

  const openFiles = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const files = toLoadFiles(list);
    // An OpenCode database holds several sessions: the library lists them.
    if (isSeveralSessions(files)) {
      void openLibrary(files[0]!.name, fromDrop(files));
      return;
    }
    load(describeFiles(files), async () => files);
  };

  // The picker gives file handles, kept in recent files; without it, the plain input.
  const pick = async () => {
    const picker = getFilePicker();
    if (!picker) return inputRef.current?.click();
    let handles: FileSystemFileHandle[];
    try {
      handles = await picker();
    } catch (error) {
      // The person closed the picker; anything else falls back to the plain input.
      if ((error as Error)?.name !== 'AbortError') inputRef.current?.click();
      return;
    }
    await openPickedFiles(queryClient, handles);
  };

  return (
    <header className="top-bar">
      <div className="brand" title="CompactLab: transcript inspector and compaction playground">
        <span className="brand-mark">◧</span> CompactLab
      </div>
      <button type="button" className="btn primary" data-testid="open-files" onClick={() => void pick()}>
        Open files…
      </button>
      <input
        ref={inputRef}
        type="file"
        multiple
        accept=".jsonl,.json,.txt,.db,.db-wal,application/json,application/x-ndjson,text/plain"
        data-testid="file-input"
        className="visually-hidden"
        // The "Open files…" button opens it: no Tab stop of its own (nothing visible to focus).
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          openFiles(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
      <FolderButtons />
      <button type="button" className="btn" data-testid="paste-button" onClick={() => setPasteOpen(true)}>
        Paste
      </button>
      <button
        type="button"
        className="btn"
        data-testid="open-sample"
        onClick={() => load('the bundled sample', fetchSampleFiles)}
      >
        Open sample
      </button>
      <ExportMenu />
      <LearnButton />
      <div className="top-status">
        {loading ? (
          <LoadProgress load={loading} onCancel={cancelLoad} />
        ) : notice ? (
          <span className={`notice ${notice.kind}`} data-testid="load-notice">
            {notice.text}
            <button type="button" className="btn link" onClick={dismissNotice} aria-label="Dismiss">
              ×
            </button>
          </span>
        ) : currentLabel ? (
          <span className="current-label" title={markHiddenChars(currentLabel)}>
            {currentLabel}
          </span>
        ) : null}
      </div>
      {/* While a file loads its progress takes the room (at 1280 px they overlapped). */}
      {!loading && <span className="hint">Drop a transcript (and its subagent files) anywhere</span>}
      <ShortcutsButton />
      <ThemeToggle />
      {pasteOpen && (
        <PasteDialog
          onClose={() => setPasteOpen(false)}
          onLoad={(text) => {
            setPasteOpen(false);
            const blob = new Blob([text], { type: 'text/plain' });
            load('pasted text', async () => [{ name: 'pasted.jsonl', blob }]);
          }}
        />
      )}
    </header>
  );
}
