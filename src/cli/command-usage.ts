// Usage text of the commands loaded on demand, kept apart so `--help` loads none of them.

export const STATUSLINE_USAGE = `  compactlab statusline
      Claude Code status line: reads the statusLine JSON on stdin and prints one line (context
      used, the auto-compact threshold of this version, tokens and calls left, microcompact).
      Install: "statusLine": {"type": "command", "command": "npx compactlab statusline"}`;

export const WATCH_USAGE = `  compactlab watch <session.jsonl> [--json] [--interval-ms 1000] [--once]
      Follow a live session: context now, the auto-compact threshold of its version, tokens and
      calls left; each real compaction is scored against the prediction. One updating line in a
      terminal, or one JSON object per change with --json. --once reads what is there and exits.`;

export const STATS_USAGE = `  compactlab stats <folder or file>… [--json | --csv] [--jobs N]
      One row per session (subagent files folded into theirs): file, agent, sessionId, apiCalls,
      peakContextTokens, compactions, costUsd (list prices), usage, the replay's compactions and
      real ones reproduced, tokens summarized. NDJSON by default (--json), or CSV with a header.
      Sessions are parsed in N worker threads (default: the machine's parallelism; 0: no workers).`;
