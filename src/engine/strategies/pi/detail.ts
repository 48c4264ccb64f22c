// What pi adds to its compaction events (`ReplayEvent.detail`, tagged `pi`): the files its
// summary lists. The replay carries it from the action to the event untouched; the dump, the event
// card and the tests read it through `getPiDetail`.

/**
 * Files a summary lists as read and as modified, accumulated across a chain of compactions (pi's
 * `CompactionDetails {readFiles, modifiedFiles}`: a file both read and modified is listed once, as
 * modified). Sorted.
 */
export interface TrackedFiles {
  readFiles: string[];
  modifiedFiles: string[];
}

export interface PiEventDetail {
  kind: 'pi';
  /** The files the summary lists, accumulated across compactions (`<read-files>`, `<modified-files>`). */
  trackedFiles: TrackedFiles;
}

export function createPiDetail(trackedFiles: TrackedFiles): PiEventDetail {
  return { kind: 'pi', trackedFiles };
}

/** pi's detail of an event, when it has one. */
export function getPiDetail(event: { detail?: { kind: string } }): PiEventDetail | undefined {
  return event.detail?.kind === 'pi' ? (event.detail as PiEventDetail) : undefined;
}

/** The dump's words for it (after the event's line). */
export function describePiDetail(detail: PiEventDetail): string {
  const f = detail.trackedFiles;
  return `; files read ${f.readFiles.length}, modified ${f.modifiedFiles.length}`;
}
