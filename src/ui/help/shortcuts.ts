// Every keyboard shortcut the page has, by where it works: the `?` overlay lists exactly these.
// A shortcut added to a view is added here (the handlers: timeline/use-chart-zoom.ts,
// transcript/transcript-pane.tsx, common/splitter.tsx, common/use-escape.ts, learn/learn-view.tsx,
// library/library-view.tsx, help/shortcuts-overlay.tsx, transcript/conversation-view.tsx; Monaco's
// own Ctrl+M in custom/custom-strategy-panel.tsx).

interface Shortcut {
  keys: readonly string[];
  what: string;
}

interface ShortcutGroup {
  where: string;
  shortcuts: readonly Shortcut[];
}

export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    where: 'Anywhere',
    shortcuts: [
      { keys: ['?'], what: 'Show this list of shortcuts' },
      { keys: ['Esc'], what: 'Close the topmost card, popover, menu, drawer or dialog' },
      { keys: ['Tab', 'Shift+Tab'], what: 'Move between controls' },
    ],
  },
  {
    where: 'Timeline (focus the chart)',
    shortcuts: [
      { keys: ['+', '='], what: 'Zoom in' },
      { keys: ['−', '_'], what: 'Zoom out' },
      { keys: ['←', '→'], what: 'Pan' },
      { keys: ['0'], what: 'Show every call' },
      { keys: ['Shift+drag'], what: 'Select a range: zoom to it and total its tokens, cost and calls' },
      { keys: ['Wheel', 'Drag'], what: 'Zoom, pan' },
    ],
  },
  {
    where: 'Transcript rows (focus the list)',
    shortcuts: [
      { keys: ['↑', '↓'], what: 'Select the previous or next row' },
      { keys: ['PgUp', 'PgDn'], what: 'Move a screen up or down' },
      { keys: ['Home', 'End'], what: 'First or last row' },
    ],
  },
  {
    where: 'Chart markers and replay event chips (one Tab stop a row)',
    shortcuts: [
      { keys: ['←', '→'], what: 'Previous or next marker or event' },
      { keys: ['Home', 'End'], what: 'First or last' },
      { keys: ['Enter'], what: 'Open it (a cluster lists its members)' },
    ],
  },
  {
    where: 'Session library',
    shortcuts: [
      { keys: ['↑', '↓'], what: 'Move to the previous or next session (focus the list)' },
      { keys: ['PgUp', 'PgDn'], what: 'Move a screen up or down' },
      { keys: ['Home', 'End'], what: 'First or last session' },
      { keys: ['Enter'], what: 'Open the session' },
    ],
  },
  {
    where: 'Splitters',
    shortcuts: [{ keys: ['←', '→', '↑', '↓'], what: 'Resize the chart or the side panel' }],
  },
  {
    where: 'Custom strategy editor',
    shortcuts: [
      { keys: ['Tab'], what: 'Indent (the Summaries editors move on instead)' },
      { keys: ['Ctrl+M'], what: 'Tab moves the focus on out of the editor, or indents again' },
    ],
  },
  {
    where: 'Learn mode',
    shortcuts: [{ keys: ['←', '→'], what: 'Previous or next step' }],
  },
];
