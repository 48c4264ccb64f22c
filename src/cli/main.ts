import {
  commandHelpText,
  HELP_FOOTER,
  INSPECT_USAGE,
  SEARCH_USAGE,
  STATS_USAGE,
  STATUSLINE_USAGE,
  WATCH_USAGE,
} from './command-usage';
import { type Command, runCommand } from './run-command';
import { writeOutLine } from './stdout';

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
  return text === undefined ? usage() : commandHelpText(text);
}

const COMMANDS: Record<string, Command> = {
  // Every command's code loads on demand, `inspect`'s too: a command loads only its own chunks
  // (the status line, run at each update of Claude Code's screen, never loads the parser).
  inspect: async (args, out) =>
    (await import('./inspect')).inspectCommand(args, out, async () => commandHelpText(INSPECT_USAGE)),
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
export async function main(argv: string[], out: (text: string) => void = writeOutLine): Promise<number> {
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
  return runCommand(name, command, rest, out);
}
