import { reportCommandError } from './cli-args';
import { escapeJsonText, escapeTerminalText } from './terminal-text';

/** A command: its arguments (the command's name taken off) and where its output goes. */
export type Command = (args: string[], out: (text: string) => void) => Promise<number>;

/**
 * Runs one command as every entry runs it (main.ts, and inspect-main.ts, `inspect` alone): its
 * output made inert, its error said on stderr with the exit code it calls for.
 */
export async function runCommand(
  name: string,
  command: Command,
  args: string[],
  out: (text: string) => void,
): Promise<number> {
  // Transcript text reaches the output (models, paths, issue snippets, summaries): it is shown
  // inert, never able to move the cursor, retitle the terminal or reverse the line.
  const safeOut = args.includes('--json')
    ? (text: string) => out(escapeJsonText(text))
    : (text: string) => out(escapeTerminalText(text));
  try {
    return await command(args, safeOut);
  } catch (error) {
    return reportCommandError(name, error);
  }
}
