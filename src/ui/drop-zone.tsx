import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { collectDroppedFiles } from './load/dropped-files';
import { fromDrop, isSeveralSessions, openLibrary } from './library/open-folder';
import { isSessionNamesPath } from '../engine/library/session-names';
import { describeFiles, loadSession } from './load/load-session';
import { captureDropHandles, rememberRecentFiles } from './load/recent-files';
import { setLiveSource } from './library/live';

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** The whole page accepts drops; several files dropped together are one session. */
export function DropZone({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  return (
    <div
      className="app"
      data-testid="dropzone"
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setDragging(false);
        const pending = collectDroppedFiles(e.dataTransfer);
        const handles = captureDropHandles(e.dataTransfer);
        void pending.then((dropped) => {
          if (dropped.length === 0) return;
          // A folder holding several sessions is a library, not one timeline (with the names its
          // agent lists them under: Codex's session_index.jsonl).
          if (isSeveralSessions(dropped)) {
            void openLibrary(dropped[0]!.name.split('/')[0] || 'Dropped files', fromDrop(dropped));
            return;
          }
          // One session: a names file walked from a folder is not one of its files.
          const files = dropped.filter((f) => !f.name.includes('/') || !isSessionNamesPath(f.name));
          if (files.length === 0) return;
          const label = describeFiles(files);
          // The live session before is not this one.
          setLiveSource(undefined);
          void loadSession(queryClient, label, async () => files, { show: true }).then(async (loaded) => {
            // Kept for the start page's recent files once it loaded (where the browser gives handles).
            const kept = await handles;
            if (!loaded || kept.length !== files.length) return;
            await rememberRecentFiles(
              label,
              files.map((f, i) => ({ name: f.name, handle: kept[i]! })),
              files[0]?.blob.size ?? 0,
            );
          });
        });
      }}
    >
      {children}
      {dragging && (
        <div className="drop-overlay">
          <div>Drop a transcript — main .jsonl plus its subagent files, or the session folder</div>
        </div>
      )}
    </div>
  );
}
