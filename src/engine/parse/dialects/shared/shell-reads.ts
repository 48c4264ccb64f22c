import type { FileToolSpec } from '../descriptor';
import { isObject } from '../record';

// The files a shell command reads, when the command is nothing but a read of files named on its
// line: what an agent without a read tool of its own (Codex CLI's `exec_command`, `shell`) or with
// one it did not use runs to look at a file. The built-in summary and the retention score list
// them with the files a read tool read (dialect descriptors' `fileTools`, summarize/digest.ts).
//
// Ours, deliberately small: a person skimming the log reads these, and only these, as "read f".
//   cat [-flags] F…                 the whole file
//   nl [-flags] F…                  the whole file, numbered
//   head / tail [-n N | -N | -c N] F…   its first or last lines
//   sed -n 'N[,M]p[;…]' F…          line ranges only (`N`, `N,M`, `N,$`, joined by `;`)
// Anything else is no read of the file named: a pipe, a redirection, `;`, `&&`, `||`, `&`, a
// subshell, command or variable substitution, a glob, a heredoc, a second line (the output is no
// longer the file's text, or the operand is not a file we can name); rg and grep (searches whose
// operand is as often a folder); sed with any other script (`s///`, `-i`); tail -f (a follow).
// An operand with a control character, or longer than Linux's PATH_MAX (4,096 bytes), is no path.
// One pass over the command's characters: linear in its length whatever it holds.

/** Linux's PATH_MAX (limits.h): a longer operand names no file. */
const MAX_PATH_CHARS = 4_096;

/** Characters that make a command more than one simple command, or its operands not literal. */
const SPECIAL = new Uint8Array(128);
for (const c of '|&;<>()$`*?[\n\r') SPECIAL[c.charCodeAt(0)] = 1;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const SPACE = 32;
const TAB = 9;
const SINGLE = 39;
const DOUBLE = 34;
const BACKSLASH = 92;

/**
 * A command line as the words a POSIX shell would pass, or undefined when it holds anything but
 * literal words (see above). Single and double quotes and backslash escapes are undone. Each
 * character is looked at once; runs are copied as slices.
 */
export function splitSimpleCommand(command: string): string[] | undefined {
  const words: string[] = [];
  const n = command.length;
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < n) {
    const c = command.charCodeAt(i);
    if (c === SPACE || c === TAB) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === SINGLE) {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += command.slice(i + 1, end);
      i = end + 1;
    } else if (c === DOUBLE) {
      let j = i + 1;
      let from = j;
      for (;;) {
        if (j >= n) return undefined;
        const d = command.charCodeAt(j);
        if (d === DOUBLE) break;
        if (d === 36 || d === 96) return undefined; // $ and ` substitute inside double quotes
        if (d === BACKSLASH && j + 1 < n && '"\\$`'.includes(command[j + 1] as string)) {
          word += command.slice(from, j) + command[j + 1];
          j += 2;
          from = j;
        } else j++;
      }
      word += command.slice(from, j);
      i = j + 1;
    } else if (c === BACKSLASH) {
      if (i + 1 >= n || command[i + 1] === '\n') return undefined;
      word += command[i + 1];
      i += 2;
    } else {
      let j = i;
      for (; j < n; j++) {
        const d = command.charCodeAt(j);
        if (d === SPACE || d === TAB || d === SINGLE || d === DOUBLE || d === BACKSLASH) break;
        if (d < 128 && SPECIAL[d]) return undefined;
      }
      word += command.slice(i, j);
      i = j;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** `sed -n` scripts that print line ranges and nothing else. */
const SED_PRINT_RANGES = /^\d+(?:,(?:\d+|\$))?p(?:;\d+(?:,(?:\d+|\$))?p)*;?$/;

/** Options of head/tail that take the next word as their value. */
const HEAD_TAIL_VALUE_OPTIONS = new Set(['-n', '-c', '--lines', '--bytes']);
/** nl's options that take a value; given apart (`-b a`) the value is the next word. */
const NL_VALUE_OPTIONS = new Set(['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w']);

const isPath = (word: string): boolean =>
  word !== '' && word !== '-' && word.length <= MAX_PATH_CHARS && !CONTROL.test(word);

/**
 * The files an argv reads when it is one of the read commands above (its program named bare or
 * by path: `/bin/cat`); [] otherwise.
 */
export function readArgvFiles(argv: readonly string[]): string[] {
  const program = (argv[0] ?? '').replace(/^.*\//, '');
  const files: string[] = [];
  let options = true;
  let sedScript = program !== 'sed';
  let sedQuiet = false;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string;
    if (options && word === '--') {
      options = false;
      continue;
    }
    if (options && word.startsWith('-') && word !== '-') {
      switch (program) {
        case 'cat':
          if (!/^-[AbeEnstTuv]+$/.test(word)) return [];
          break;
        case 'nl':
          if (NL_VALUE_OPTIONS.has(word)) i++;
          break;
        case 'head':
        case 'tail':
          if (HEAD_TAIL_VALUE_OPTIONS.has(word)) i++;
          else if (!/^-(?:\d+|[nc]\d+|q|v|-lines=\d+|-bytes=\d+)$/.test(word)) return [];
          break;
        case 'sed':
          if (word !== '-n') return [];
          sedQuiet = true;
          break;
        default:
          return [];
      }
      continue;
    }
    if (!sedScript) {
      // sed's first operand is its script.
      if (!sedQuiet || !SED_PRINT_RANGES.test(word.replace(/\s+/g, ''))) return [];
      sedScript = true;
      continue;
    }
    if (!isPath(word)) return [];
    files.push(word);
  }
  return ['cat', 'nl', 'head', 'tail', 'sed'].includes(program) ? files : [];
}

/** The read programs, named bare or by path, first on the line: what is worth splitting. */
const READ_PROGRAM = /^[ \t]*(?:[^ \t'"]*\/)?(?:cat|nl|head|tail|sed)[ \t]/;

/** The files a command line reads (see above); [] for any other command. */
export function readCommandFiles(command: string): string[] {
  if (!READ_PROGRAM.test(command)) return [];
  const argv = splitSimpleCommand(command.trim());
  return argv ? readArgvFiles(argv) : [];
}

/** A shell tool whose `commandKey` input is a command line: the files it reads (see above). */
export function createShellReadTool(name: string, commandKey = 'command'): FileToolSpec {
  return {
    name,
    readFiles: (input) => {
      const command = isObject(input) ? input[commandKey] : undefined;
      return typeof command === 'string'
        ? readCommandFiles(command).map((path) => ({ path, action: 'read' as const }))
        : [];
    },
  };
}
