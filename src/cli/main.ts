import { SEARCH_USAGE, STATS_USAGE, STATUSLINE_USAGE, WATCH_USAGE } from './command-usage';
import { reportCommandError } from './cli-args';
import { escapeJsonText, escapeTerminalText } from './terminal-text';

const INSPECT_USAGE = `  compactlab inspect <session.jsonl> [subagent files…] [--json | --dump]
      Parse a transcript (plus the subagent / compaction-call files that belong to it) and
      print where compaction fired, the context of every API call and any parse issues.
      --dump prints one line per entry (the format of the golden test files).`;

/**
 * Each command's usage block, in the help's order. The other commands' parts come from their own
 * modules (replay's and summarize's are built from the strategy and prompt registries), so they
 * load only when the text is shown: `inspect` loads none of them.
 */
async function commandUsages(): Promise<[name: string, text: string][]> {
  const [
    { REPLAY_USAGE },
    { SUMMARIZE_USAGE },
    { BASH_SUMMARIES_USAGE },
    { REPORT_USAGE },
    { EXPORT_USAGE },
    { EROSION_USAGE },
    { FIDELITY_USAGE },
  ] = await Promise.all([
    import('./replay'),
    import('./summarize'),
    import('./bash-summaries'),
    import('./report'),
    import('./export'),
    import('./erosion'),
    import('./fidelity'),
  ]);
  return [
    ['inspect', INSPECT_USAGE],
    ['replay', REPLAY_USAGE],
    ['summarize', SUMMARIZE_USAGE],
    ['statusline', STATUSLINE_USAGE],
    ['watch', WATCH_USAGE],
    ['stats', STATS_USAGE],
    ['search', SEARCH_USAGE],
    ['bash-summaries', BASH_SUMMARIES_USAGE],
    ['report', REPORT_USAGE],
    ['export', EXPORT_USAGE],
    ['erosion', EROSION_USAGE],
    ['fidelity', FIDELITY_USAGE],
  ];
}

/** What every command shares: the options, how files are taken, the exit codes. */
const HELP_FOOTER = `Options:
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

/** The whole help text: every command's usage. */
const usage = async (): Promise<string> => {
  const blocks = (await commandUsages()).map(([, text]) => text);
  return `compactlab — see and replay how AI coding agents compact their context

Usage:
${blocks.join('\n')}

${HELP_FOOTER}`;
};

/** `compactlab <command> --help`: that command's usage and what every command shares. */
async function commandHelp(name: string): Promise<string> {
  const text = (await commandUsages()).find(([command]) => command === name)?.[1];
  if (text === undefined) return usage();
  return `Usage:\n${text}\n\n${HELP_FOOTER}\nEvery command: compactlab --help`;
}

type Command = (args: string[], out: (text: string) => void) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  // Every command's code loads on demand, `inspect`'s too: a command loads only its own chunks
  // (the status line, run at each update of Claude Code's screen, never loads the parser).
  inspect: async (args, out) =>
    (await import('./inspect')).inspectCommand(args, out, () => commandHelp('inspect')),
  summarize: async (args, out) => (await import('./summarize')).summarize(args, out),
  replay: async (args, out) => (await import('./replay')).replayCommand(args, out),
  statusline: async (args, out) => (await import('./live/statusline')).statuslineCommand(args, out),
  watch: async (args, out) => (await import('./live/watch')).watchCommand(args, out),
  stats: async (args, out) => (await import('./stats/stats')).statsCommand(args, out),
  search: async (args, out) => (await import('./search')).searchCommand(args, out),
  'bash-summaries': async (args, out) => (await import('./bash-summaries')).bashSummariesCommand(args, out),
  report: async (args, out) => (await import('./report')).reportCommand(args, out),
  export: async (args, out) => (await import('./export')).exportCommand(args, out),
  erosion: async (args, out) => (await import('./erosion')).erosionCommand(args, out),
  fidelity: async (args, out) => (await import('./fidelity')).fidelityCommand(args, out),
};

/** Runs the CLI; returns the exit code. */
export async function main(
  argv: string[],
  out: (text: string) => void = (t) => process.stdout.write(`${t}\n`),
): Promise<number> {
  const [name, ...rest] = argv;
  // `replay --help` is the replay's own: it lists the chosen strategy's knobs.
  const help = name !== 'replay' && (rest.includes('--help') || rest.includes('-h'));
  if (!name || name === '-h' || name === '--help') {
    out(await usage());
    return name ? 0 : 2;
  }
  if (help && COMMANDS[name]) {
    out(await commandHelp(name));
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`compactlab: unknown command "${name}"\n\n${await usage()}`);
    return 2;
  }
  // Transcript text reaches the output (models, paths, issue snippets, summaries): it is shown
  // inert, never able to move the cursor, retitle the terminal or reverse the line.
  const safeOut = rest.includes('--json')
    ? (text: string) => out(escapeJsonText(text))
    : (text: string) => out(escapeTerminalText(text));
  try {
    return await command(rest, safeOut);
  } catch (error) {
    return reportCommandError(name, error);
  }
}
