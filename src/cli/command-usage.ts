// Usage text of the commands loaded on demand, kept apart so `--help` loads none of them.

export const INSPECT_USAGE = `  compactlab inspect <session.jsonl> [subagent files…] [--json | --dump]
      Parse a transcript (plus the subagent / compaction-call files that belong to it) and
      print where compaction fired, the context of every API call and any parse issues.
      --dump prints one line per entry (the format of the golden test files).`;

/** What every command shares: the options, how files are taken, the exit codes. */
export const HELP_FOOTER = `Options:
  --json      machine-readable output on stdout
  -h, --help  this text

Files: a transcript named alone is read with its session's files, those a walk of its folder
groups with it (Claude Code's <session>/ folder: subagent and compaction-call logs, their
.meta.json, session memory; 2.0.x's agent-*.jsonl beside it that state its session id). Several
files named are read exactly as named; a subagent's log named alone is read alone; a folder is
read as the one session it holds.

Exit codes:
  0  done (search: a session holds the text)
  1  the command could not do it: a file it cannot read or that holds no transcript, a session
     without API calls where one is needed, a summarizer's or a file's error (search: no session
     holds the text)
  2  a usage error: an unknown command, flag, strategy or preset, a value out of range or not a
     number, flags that cannot go together, an argument missing; the message says which
     (stats --retention-summarizer without --yes also stops with 2 after its plan)
`;

/** `compactlab <command> --help`: that command's usage and what every command shares. */
export const commandHelpText = (usage: string): string =>
  `Usage:\n${usage}\n\n${HELP_FOOTER}\nEvery command: compactlab --help`;

export const STATUSLINE_USAGE = `  compactlab statusline
      Claude Code status line: reads the statusLine JSON on stdin and prints one line (context
      used, the auto-compact threshold of this version, tokens and calls left, microcompact).
      Install: "statusLine": {"type": "command", "command": "npx compactlab statusline"}`;

export const WATCH_USAGE = `  compactlab watch <session.jsonl> [--json] [--interval-ms 1000] [--once]
      Follow a live session: context now, the auto-compact threshold of its version, tokens and
      calls left; each real compaction seen landing is scored against the forecasts, and a file
      cut, replaced or gone is said (a gone file keeps its last status), and so are lines that are
      not JSON records (skipped, by line number). One updating line in a terminal, or one JSON
      object per change with --json. --once reads what is there and exits.`;

export const STATS_USAGE = `  compactlab stats <folder or file>… [--json | --csv] [--jobs N]
      One row per session (subagent files folded into theirs): file, agent, sessionId, apiCalls
      (the main thread's; subagentApiCalls the rest), peakContextTokens, compactions, costUsd and
      usage (every call the session's files record, subagents' too, at list prices), the replay's compactions and
      real ones reproduced, tokens summarized; issueErrors, issueWarnings and the first one's
      file, line and reason (firstIssue); error: why the session could not be read (also said on
      stderr), a file read as no transcript included (exit 1 when no session could be read).
      NDJSON by default (--json; every row has every key, null where a value is absent), or CSV
      with a header (an empty cell there; cells a spreadsheet would run as formulas start with
      '). Sessions are parsed in N worker
      threads (default: the machine's parallelism, none under 4 sessions; 0: no workers). The
      count of sessions done on stderr: one line rewritten on a terminal, a line per tenth elsewhere.
  compactlab stats <folder or file>… --by day|project [--tz <zone>] [--prices <file.json>]
                   [--json | --csv | --table] [--jobs N]
      Usage and cost over all the sessions, by day or by project, as the page's library charts it:
      per group, the sessions with a call in it, API calls, input, output, cache read and cache
      write tokens, costUsd at list prices (each call priced at its own model; unpricedCalls have
      none) and the cost per model; then a total row. A day is the local date of each call (a
      session across midnight counts on both days) in --tz (an IANA zone such as Europe/Paris, or
      UTC; default this machine's zone); a project is the working directory the log names (a
      Windows folder one project in any case or separator: c:\\x and C:/x). --table prints an
      aligned table for reading. Each response is counted once per session, as the list's cost
      column counts it.
  compactlab stats <folder or file>… --strategy <id> | --strategy-file <file.ts> [--knob <key>=<value>]… [knob flags]
                   [--sweep <knob>=<from>:<to>:<steps>] [--sessions] [--retention] [--prices <file.json>]
                   [--retention-summarizer builtin|anthropic|openai --retention-model <id> [--base-url <url>]
                    [--summary-cache <dir>] [--yes]] [--json | --csv] [--jobs N] [--strategy-memory <MB>]
      Every session replayed under one strategy at each setting (the knobs given over each log's
      own; each value of the swept knob): per setting, the totals of sessions, API calls,
      compactions, LLM calls, tokens summarized, the replayed cost (costUsd) beside the real one
      (realCostUsd: the log's usage of the calls the replay covers, the main thread on its replayed
      line, and its compactions' summary calls, estimated where the log has none:
      realSummariesEstimated, realSummariesEstimatedUsd), deltaUsd, the cache's read, write and
      uncached tokens, summary calls and their cost; loggedCostUsd, the session's whole cost as
      stats and --by count it, and what the replay leaves out of it: subagentCostUsd,
      otherBranchCostUsd (realCostUsd = loggedCostUsd − subagentCostUsd − otherBranchCostUsd +
      realSummariesEstimatedUsd; docs/cost.md#which-calls). --sessions adds a row per
      session and setting before the totals (column row: session or total). --retention adds what
      the setting's summaries keep (the built-in summarizer, offline): facts held since the start
      and still kept after the last compaction (retention, retainedFacts, heldFacts) and factsLost.
      --prices replaces list prices by price key (as replay's). --strategy-file: your own strategy
      (docs/custom-strategies.md), loaded by every worker thread (at least one, whatever --jobs),
      each with a heap limit of --strategy-memory MB (ours: 2,048): a session whose replay runs
      out of it is a row with that error, and the others go on. Progress on stderr.
      --retention-summarizer anthropic|openai: each compaction's summary written by that model
      (--retention-model) from the request the compaction would send, then scored the same way
      (columns retentionModel, retentionCalls, retentionCallsFailed; a failed call leaves its
      compaction unscored, the rest score). A first pass counts the calls and their input tokens
      and list-price cost and sends nothing: without --yes it stops there (exit 2). Anthropic reads
      ANTHROPIC_API_KEY, the OpenAI-compatible server OPENAI_API_KEY (optional; --base-url, default
      http://127.0.0.1:11434); keys are masked in all output. Answers are cached by request hash in
      --summary-cache (default $XDG_CACHE_HOME or ~/.cache, then compactlab/summaries): a second run
      makes no call. One session at a time, in this thread.`;

export const SEARCH_USAGE = `  compactlab search <folder or file>… <text> [--json]
      Every session under the folders (grouped as stats and the page's library group them) whose
      text holds <text>, ignoring case (plain text, not a pattern; keys, signatures and base64
      blobs are not text; found whether the file writes é or \\u00e9): per session, the matches,
      the records holding them (a line; an element of a JSON array written on one line, as Cline
      writes its files; a message of an API request written on one line, {"messages": […]}, and
      the rest of the request as one) and the first one's file, line (and element) and excerpt.
      One line each, or one JSON object each with --json. Files are read one after the other, line by line
      (the count of sessions read on a terminal's stderr). Exit code 1 when no session holds it.`;
