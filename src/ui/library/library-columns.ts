import { isSubagentsOnly } from '../../engine/library/group-files';
import type { LibraryRow } from '../../engine/library/library-row';
import { describePromptLog } from '../../engine/parse/meta-words';
import {
  formatBytes,
  formatCount,
  formatDateTime,
  formatDuration,
  formatTokensShort,
} from '../common/format';
import type { LibrarySession, LibrarySortKey } from './library-store';

/** Said before the first prompt of a row of subagent logs listed without their session. */
const SUBAGENTS_ONLY = 'subagent logs only (no session transcript)';

/** The last part of a session's key (its main file's name; an OpenCode session's id after `#`). */
const fileNameOf = (key: string) => key.slice(Math.max(key.lastIndexOf('/'), key.lastIndexOf('#')) + 1);

// The library table's columns: label, sort value, cell text. Rows still scanning sort last.

interface LibraryColumn {
  key: LibrarySortKey;
  label: string;
  title: string;
  widthCss: string;
  numeric: boolean;
  value(s: LibrarySession, row: LibraryRow): number | string;
  text(s: LibrarySession, row: LibraryRow): string;
  /** The cell's tooltip, where its text is a shortened form. */
  hint?(s: LibrarySession, row: LibraryRow): string | undefined;
}

/** A row's name: a prompt log said as one, else the agent's name for the session, else its first prompt. */
function getRowName(r: LibraryRow): string | undefined {
  return r.promptLog ? describePromptLog(r.promptLog) : (r.title ?? r.firstPrompt);
}

/**
 * A working directory's last folder, the project's name ("/home/mira/code/tally" → "tally"): the
 * column is ~7rem wide at 1280 px, and the path's start, cut there, read the same on every row.
 */
export function getProjectName(cwd: string): string {
  const parts = cwd.split(/[\\/]+/).filter((p) => p !== '');
  return parts.at(-1) ?? cwd;
}

const duration = (r: LibraryRow) =>
  r.startMs !== undefined && r.endMs !== undefined ? r.endMs - r.startMs : -1;
const compactions = (r: LibraryRow) =>
  r.compactions.auto + r.compactions.manual + r.compactions.micro + r.compactions.truncated;
const formatUsd = (usd: number) => (usd >= 100 ? `$${usd.toFixed(0)}` : `$${usd.toFixed(2)}`);

export const LIBRARY_COLUMNS: readonly LibraryColumn[] = [
  {
    key: 'start',
    label: 'Start',
    title: 'When the session began (local time)',
    widthCss: '8rem',
    numeric: false,
    value: (_, r) => r.startMs ?? 0,
    text: (_, r) => formatDateTime(r.startMs),
  },
  {
    key: 'project',
    label: 'Project',
    title: 'The folder the agent ran in (the last part of its working directory; the whole path on hover)',
    widthCss: 'minmax(7rem, 1fr)',
    numeric: false,
    value: (_, r) => (r.cwd ? getProjectName(r.cwd) : ''),
    text: (_, r) => (r.cwd ? getProjectName(r.cwd) : '–'),
    hint: (_, r) => r.cwd,
  },
  {
    key: 'agent',
    label: 'Agent',
    title: 'Agent and version',
    // "Claude Code 2.1.19" is 128 px in the table's font; Size and Issues gave half a rem each.
    widthCss: '9rem',
    numeric: false,
    value: (_, r) => `${r.agent} ${r.versions.at(-1) ?? ''}`,
    text: (_, r) => `${r.agent || '?'} ${r.versions.at(-1) ?? ''}`.trim(),
    // A pre-release ("Codex CLI 0.119.0-alpha.28") is cut at 9rem: whole on hover, every version.
    hint: (_, r) =>
      r.agent ? `${r.agent} ${r.versions.join(', ')}`.trim() : 'No agent recognised in this log',
  },
  {
    key: 'prompt',
    label: 'Session',
    title: "The session's name as its agent lists it, else what the person first asked",
    widthCss: 'minmax(8rem, 2fr)',
    numeric: false,
    value: (_, r) => getRowName(r) ?? '',
    // A log with neither (empty, unreadable, cut before its first prompt) shows its file's name:
    // rows of "–" alone could not be told apart, nor found in the folder.
    text: (s, r) =>
      `${isSubagentsOnly(s.key) ? `${SUBAGENTS_ONLY} · ` : ''}${getRowName(r) ?? fileNameOf(s.key)}`,
    hint: (s, r) =>
      isSubagentsOnly(s.key)
        ? "Subagent logs whose session transcript is not in this folder: the figures are the subagents' only"
        : r.promptLog
          ? `The prompts typed in this project, over its sessions (no model calls): not one session. First prompt: ${r.firstPrompt ?? '–'}`
          : r.title !== undefined && r.firstPrompt !== undefined
            ? `First prompt: ${r.firstPrompt}`
            : r.title === undefined && r.firstPrompt === undefined
              ? 'No name nor prompt in this log: its file'
              : undefined,
  },
  {
    key: 'duration',
    label: 'Duration',
    title: 'First to last record of the main transcript',
    widthCss: '5rem',
    numeric: true,
    value: (_, r) => duration(r),
    text: (_, r) => (duration(r) < 0 ? '–' : formatDuration(duration(r))),
  },
  {
    key: 'size',
    label: 'Size',
    title: 'Bytes of all the session’s files',
    widthCss: '5rem',
    numeric: true,
    value: (s) => s.sizeBytes,
    text: (s) => formatBytes(s.sizeBytes),
  },
  {
    key: 'calls',
    label: 'Calls',
    title: 'API calls of the main thread (+ subagent files’ calls)',
    widthCss: '5.5rem',
    numeric: true,
    value: (_, r) => r.apiCalls,
    text: (_, r) =>
      `${formatCount(r.apiCalls)}${r.sidechainCalls ? ` +${formatCount(r.sidechainCalls)}` : ''}`,
  },
  {
    key: 'peak',
    label: 'Peak',
    title: 'Largest context of a main-thread call (tokens)',
    widthCss: '4.5rem',
    numeric: true,
    value: (_, r) => r.peakContextTokens,
    text: (_, r) => formatTokensShort(r.peakContextTokens),
  },
  {
    key: 'compactions',
    label: 'Compactions',
    title:
      'Compactions of the main thread: auto / manual / µ (microcompactions), and T (truncations, Cline) where there are any; + those in subagent logs (their own contexts), as the session’s header says them',
    widthCss: '6rem',
    numeric: true,
    value: (_, r) => compactions(r),
    // The subagents' own compactions said apart, as the session header does ("6 compactions · 9 in
    // subagents") and the Calls column does its subagent calls ("+N"); the row held the figure.
    text: (_, r) =>
      `${r.compactions.auto} / ${r.compactions.manual} / ${r.compactions.micro}µ${r.compactions.truncated ? ` · ${r.compactions.truncated} T` : ''}${r.compactions.inSubagents ? ` +${formatCount(r.compactions.inSubagents)}` : ''}`,
    hint: (_, r) =>
      r.compactions.inSubagents
        ? `${formatCount(compactions(r))} on the main thread · ${formatCount(r.compactions.inSubagents)} in subagents`
        : undefined,
  },
  {
    key: 'subagents',
    label: 'Sub',
    title: 'Subagent, side-question and compaction-call files',
    widthCss: '3.5rem',
    numeric: true,
    value: (_, r) => r.subagentFiles,
    text: (_, r) => formatCount(r.subagentFiles),
  },
  {
    key: 'issues',
    label: 'Unread',
    title:
      'Lines that are not JSON or are cut off, and files that are no transcript: a plain count, the part of the opened session’s parse issues the list reads exactly (the rest are notes only a whole read makes)',
    widthCss: '4.5rem',
    numeric: true,
    // What could not be read, not every issue: the scan skips most lines, so it meets only some of
    // the notes the full read makes (a session's header said "1 parse issue" where this said 0).
    value: (_, r) => r.unread,
    text: (_, r) => formatCount(r.unread),
    // What the count is, without opening the session: its first ("line 4: … not valid JSON").
    hint: (_, r) => (r.unread > 0 && r.firstIssue ? `First: ${r.firstIssue}` : undefined),
  },
  {
    key: 'cost',
    label: 'Cost',
    title:
      'At list prices, each call once across files; + when some calls’ models have no price; ≈ the agent’s own figure where no call could be priced',
    widthCss: '5rem',
    numeric: true,
    value: (_, r) => (r.costUsd === 0 && r.unpricedCalls > 0 ? (r.statedCostUsd ?? 0) : r.costUsd),
    text: (_, r) =>
      r.costUsd === 0 && r.unpricedCalls > 0
        ? r.statedCostUsd === undefined
          ? '–'
          : `≈${formatUsd(r.statedCostUsd)}`
        : `${formatUsd(r.costUsd)}${r.unpricedCalls > 0 ? '+' : ''}`,
  },
];

export const GRID_TEMPLATE = LIBRARY_COLUMNS.map((c) => c.widthCss).join(' ');

/** Gap between the table's columns (rem); `.library-head`/`.library-row` padding is 0.5rem a side. */
const GAP_REM = 0.4;

/**
 * The table's narrowest width: every column at its minimum, the gaps and the row's padding
 * (≈75rem, 1200 px: it fits a 1280 px window). Narrower, the list scrolls sideways, its first
 * column sticky.
 */
export const TABLE_MIN_WIDTH = `${
  LIBRARY_COLUMNS.reduce((s, c) => s + Number(/([\d.]+)rem/.exec(c.widthCss)?.[1] ?? 0), 0) +
  GAP_REM * (LIBRARY_COLUMNS.length - 1) +
  1
}rem`;

/**
 * Text columns in the reader's order with the digits in them read as numbers: "Claude Code 2.1.9"
 * before "2.1.12" before "2.1.101" (a plain string order put 2.1.101 first and 2.1.9 last).
 */
const TEXT_ORDER = new Intl.Collator(undefined, { numeric: true });

/** Filtered by agent and search text (project, prompt, path), sorted by the chosen column. */
export function selectSessions(
  sessions: readonly LibrarySession[],
  sort: { key: LibrarySortKey; descending: boolean },
  search: string,
  agent: string,
): LibrarySession[] {
  const column = LIBRARY_COLUMNS.find((c) => c.key === sort.key) ?? LIBRARY_COLUMNS[0]!;
  const needle = search.trim().toLowerCase();
  const kept = sessions.filter((s) => {
    if (agent && s.row?.agent !== agent) return false;
    if (!needle) return true;
    const hay = `${s.key}\n${s.row?.cwd ?? ''}\n${s.row?.title ?? ''}\n${s.row?.firstPrompt ?? ''}\n${s.row?.models.join(' ') ?? ''}`;
    return hay.toLowerCase().includes(needle);
  });
  const sign = sort.descending ? -1 : 1;
  // Keys (paths) break ties by code point: `localeCompare` per comparison was most of a sort of
  // hundreds of rows still scanning, and the list is sorted again for every batch of rows.
  const byKey = (a: LibrarySession, b: LibrarySession) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return kept.sort((a, b) => {
    if (!a.row || !b.row) return a.row ? -1 : b.row ? 1 : byKey(a, b);
    const va = column.value(a, a.row);
    const vb = column.value(b, b.row);
    const d = typeof va === 'number' ? va - (vb as number) : TEXT_ORDER.compare(String(va), String(vb));
    return d === 0 ? byKey(a, b) : sign * d;
  });
}
