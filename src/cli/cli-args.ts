import { type ParseArgsConfig, parseArgs as parseNodeArgs } from 'node:util';
import { escapeTerminalText } from './terminal-text';

// Every command's flags go through here: node's parseArgs, with the rules it lacks. A usage error
// (a flag or value the command cannot take) is a `UsageError`, which `main` turns into exit code 2
// whatever the command, beside its message; a command that cannot do what was asked (a file it
// cannot read, a session with no API call) exits 1.

/** A command line the command cannot take: `main` prints its message and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A negative number as an argument of its own (`-5`, `-0.5`, `-1e3`). Node's parseArgs takes an
 * argument starting with `-` after a string option for a forgotten value ("Option '--pct' argument
 * is ambiguous… use '--pct=-XYZ'"), never for the number it is; no flag of ours is a digit.
 */
const NEGATIVE_NUMBER = /^-(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * `args` with each `--flag -5`, where `--flag` takes a value, written `--flag=-5`, so the value
 * reaches the command's own range check as the `=` form does. Only a negative number is joined:
 * `--pct --json` still says `--pct` lacks its value, and nothing after `--` is touched.
 */
export function joinNegativeValues(
  args: readonly string[],
  options: ParseArgsConfig['options'] = {},
): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const takesValue = arg.startsWith('--') && !arg.includes('=') && options[arg.slice(2)]?.type === 'string';
    if (takesValue && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

interface ArgRules {
  /** Groups of flags of which one at most may be given (`--json`, `--csv`: two outputs). */
  exclusive?: readonly (readonly string[])[];
}

/** Node's parse errors are usage errors (an unknown flag, a flag without its value). */
const isParseArgsError = (error: unknown): error is Error =>
  error instanceof Error && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_');

/**
 * `parseArgs` of node:util with a negative number taken as a flag's value (`joinNegativeValues`)
 * and flags that exclude each other refused; its errors and these are `UsageError`s.
 */
export function parseArgs<T extends ParseArgsConfig>(
  config: T,
  rules: ArgRules = {},
): ReturnType<typeof parseNodeArgs<T>> {
  let parsed: ReturnType<typeof parseNodeArgs<T>>;
  try {
    // The same config with its arguments rewritten: the result's type is the config's.
    const joined = { ...config, args: joinNegativeValues(config.args ?? [], config.options) };
    parsed = parseNodeArgs(joined as T);
  } catch (error) {
    throw isParseArgsError(error) ? new UsageError(error.message) : error;
  }
  const values = parsed.values as Record<string, unknown>;
  for (const group of rules.exclusive ?? []) {
    const given = group.filter((name) => values[name] !== undefined && values[name] !== false);
    if (given.length > 1) throw new UsageError(`${given.map((name) => `--${name}`).join(' and ')}: give one`);
  }
  return parsed;
}

/**
 * `read()`, whose error is the command line's: a value it names that does not exist (an unknown
 * strategy or preset, an API call the session does not have), turned into a `UsageError`.
 */
export function readArg<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof Error && !(error instanceof UsageError) ? new UsageError(error.message) : error;
  }
}

/** Node's file errors in words ("ENOENT: no such file or directory, stat '…'" named the call). */
const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a folder, where a file was expected',
  ENOTDIR: 'a part of the path is not a folder',
};

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, path } = error as NodeJS.ErrnoException;
  const words = code === undefined ? undefined : FILE_ERRORS[code];
  return words && path ? `${path}: ${words}` : error.message;
}

/**
 * What a command threw, said on stderr; the exit code: 2 for a command line the command cannot
 * take (a `UsageError`, as each command's own usage checks return), else 1. `main` and the
 * strategy thread (strategy-worker) both end a command here: an error thrown in the thread is
 * said there, where it is still a `UsageError` (a worker's error event brings a plain `Error`).
 */
export function reportCommandError(command: string, error: unknown): number {
  process.stderr.write(`compactlab ${command}: ${escapeTerminalText(describeError(error))}\n`);
  return error instanceof UsageError ? 2 : 1;
}
