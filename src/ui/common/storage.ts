// Whether this browser lets the page keep anything in IndexedDB. Some deny it: a sandboxed frame,
// a privacy setting, an opaque origin, where merely reading `window.indexedDB` throws a
// SecurityError. The page then works from memory and says what it does not keep
// (`StorageNotice`), rather than failing to start.

let available: boolean | undefined;

/** True when IndexedDB can be reached (read once; a throwing getter counts as none). */
export function hasIndexedDb(): boolean {
  if (available === undefined) {
    try {
      available = typeof globalThis.indexedDB !== 'undefined' && globalThis.indexedDB !== null;
    } catch {
      available = false;
    }
  }
  return available;
}

/** What the page keeps in IndexedDB, said where it cannot. */
export const NOT_KEPT_WITHOUT_STORAGE =
  'This browser keeps no storage for the page: summary runs last until the tab closes (custom strategies too), and recent files and the library list are not remembered.';
