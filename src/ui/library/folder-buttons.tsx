import { DIALECT_INFOS } from '../../engine/parse/dialects/descriptors';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useUiStore } from '../store';
import { libraryListingQuery } from './library-queries';
import { useLibraryStore } from './library-store';
import { fromFileList, getDirectoryPicker, openDirectoryHandle, openLibrary } from './open-folder';

let openInput: (() => void) | undefined;

/** Opens the directory input (the reopen button of a listing restored without a handle). */
/** The folders the agents write their sessions in, from the dialects' locations (`~/.codex/sessions`). */
const AGENT_FOLDERS = [
  ...new Set(
    DIALECT_INFOS.flatMap((d) => {
      const folder = d.files.location?.split(/[<( ]/)[0]?.replace(/[/-]+$/, '');
      return folder?.startsWith('~/') ? [folder] : [];
    }),
  ),
];

export function requestFolderInput(): void {
  openInput?.();
}

/** The top bar's library entries: "Open folder…" and, once a folder is listed, the view switch. */
export function FolderButtons() {
  const inputRef = useRef<HTMLInputElement>(null);
  const listed = (useQuery(libraryListingQuery()).data?.roots.length ?? 0) > 0;
  const view = useLibraryStore((s) => s.view);
  const showView = useLibraryStore((s) => s.showView);
  // After a reload the list comes back but no session is open: the switch would lead to nothing.
  const sessionOpen = useUiStore((s) => s.currentSessionId !== undefined);
  // A session opened from the library by the keyboard (Enter on a row or a find): the library
  // left the page with the focus inside it, which fell to <body> (the focus ring gone, Tab from
  // the page's start). It goes to the switch back to the library instead.
  const toggleRef = useRef<HTMLButtonElement>(null);
  const lastView = useRef(view);
  useEffect(() => {
    const from = lastView.current;
    lastView.current = view;
    if (from !== 'library' || view !== 'session') return;
    // After the key's event: focused during Enter's keydown, the switch took its keypress as a
    // click and went straight back to the library.
    const timer = setTimeout(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) toggleRef.current?.focus();
    });
    return () => clearTimeout(timer);
  }, [view]);
  useEffect(() => {
    openInput = () => inputRef.current?.click();
    return () => {
      openInput = undefined;
    };
  }, []);

  const pick = async () => {
    const picker = getDirectoryPicker();
    if (!picker) return inputRef.current?.click();
    try {
      await openDirectoryHandle(await picker());
    } catch (error) {
      // The person closed the picker; anything else falls back to the plain input.
      if ((error as Error)?.name !== 'AbortError') inputRef.current?.click();
    }
  };

  return (
    <>
      <button
        type="button"
        className="btn"
        data-testid="open-folder"
        title={`List every session of a folder (${AGENT_FOLDERS.join(', ')}, …), beside the folders listed already; nothing is uploaded`}
        onClick={() => void pick()}
      >
        Open folder…
      </button>
      <input
        ref={inputRef}
        type="file"
        data-testid="folder-input"
        className="visually-hidden"
        // The "Open folder…" button opens it: no Tab stop of its own (nothing visible to focus).
        tabIndex={-1}
        aria-hidden="true"
        // biome-ignore lint/suspicious/noExplicitAny: `webkitdirectory` is missing from React's input props.
        {...({ webkitdirectory: '', directory: '' } as any)}
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          if (files.length > 0) {
            const first = files[0]!.webkitRelativePath.split('/')[0] || 'Folder';
            void fromFileList(files).then((list) => openLibrary(first, list));
          }
          e.currentTarget.value = '';
        }}
      />
      {listed && (view !== 'library' || sessionOpen) && (
        <button
          ref={toggleRef}
          type="button"
          className="btn"
          data-testid="library-toggle"
          onClick={() => showView(view === 'library' ? 'session' : 'library')}
        >
          {view === 'library' ? 'Back to session' : 'Library'}
        </button>
      )}
    </>
  );
}
