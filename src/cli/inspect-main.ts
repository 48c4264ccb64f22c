import { commandHelpText, INSPECT_USAGE } from './command-usage';
import { inspectCommand } from './inspect';
import { runCommand } from './run-command';
import { writeOutLine } from './stdout';

// `compactlab inspect` alone, as main.ts runs it: the entry of dist/cli/inspect.cjs, the one
// script bin/compactlab.cjs runs through V8's code cache (scripts/build-cli.mjs). The cache is
// taken after an inspect has run, so it holds the parse's compiled functions too: a cold parse
// compiles them as they first run (docs/benchmarks.md, the command line).

/** `compactlab inspect …`: `argv` as main's, its first word `inspect`. */
export function main(argv: string[], out: (text: string) => void = writeOutLine): Promise<number> {
  const [name = 'inspect', ...rest] = argv;
  const help = async () => commandHelpText(INSPECT_USAGE);
  if (rest.includes('--help') || rest.includes('-h')) {
    return help().then((text) => {
      out(text);
      return 0;
    });
  }
  return runCommand(name, (args, safeOut) => inspectCommand(args, safeOut, help), rest, out);
}
