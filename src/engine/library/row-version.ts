// The version of the library's rows, apart from the row code: the page's cache reads it without
// loading the engine (what `getLibraryRow` computes runs in the worker).

/**
 * What a row holds and how its figures are computed, as a number: a change of either bumps it, so
 * rows cached by an earlier build (the page's IndexedDB) are read again rather than shown stale.
 * 2: the first prompt as a person typed it; truncations counted apart. 3: usage by quarter hour.
 * 4: the agent's own stated cost (Cline's). 5: the session's name (Claude Code's titles, Codex's
 * thread name, pi's session name, OpenCode's title). 6: compactions of the main thread by its
 * entries (parse/main-thread.ts; a 1.0.x subagent's inline boundary no longer counted), the
 * subagents' counted apart. 7: the first issue, said (the Issues column's hint). 8: an agent's
 * file that is no session (a prompt history outside the agent's folder), said as such. 9: the
 * lines and files not read counted apart (the list's column), the first issue the first of them.
 * 10: a Gemini CLI chat file's name (its `summary`). 11: a call whose `type` sits before a `cwd`
 * longer than the scan's tail window, counted (scan-session.ts). 12: a prompt log's counts.
 */
export const LIBRARY_ROW_VERSION = 12;
