import type { FileToolSpec, FileTouchRead } from '../descriptor';
import { isObject } from '../record';
import { readArgvFiles, readCommandFiles } from '../shared/shell-reads';

// The files Codex CLI's tool calls read and change, as a summary request carries them
// (message-records.ts: a `function_call`'s parsed `arguments`, a `custom_tool_call`'s `{input}`,
// a `local_shell_call`'s `action`). Codex has no read tool: it reads with its shell tools
// (`exec_command` `{cmd}`, `shell_command` `{command}`, `shell` and `local_shell` `{command: argv}`;
// docs/sources.md#fmt-timeline; the 46 real rollouts of the corpora hold 327, 179 and 239 such
// calls), and changes files with `apply_patch`, whose text names each file on a header line.

/**
 * apply_patch's file headers (openai/codex@0e0fb63d029055d4aec1d536a3d72f70164ba8a6:
 * codex-rs/apply-patch/src/parser.rs:11-17, the grammar; 36-39, the markers): `*** Add File: p`
 * (a new file), `*** Update File: p` (an edit, `*** Move to: q` on the next line renaming it),
 * `*** Delete File: p`. The parser trims each line; so does this.
 */
const PATCH_HEADERS: readonly [string, FileTouchRead['action']][] = [
  ['*** Add File: ', 'write'],
  ['*** Update File: ', 'edit'],
  ['*** Delete File: ', 'delete'],
  ['*** Move to: ', 'write'],
];

/** The files a patch names, with what it does to each; one pass over its lines. */
export function readPatchFiles(patch: string): FileTouchRead[] {
  const out: FileTouchRead[] = [];
  let start = 0;
  while (start <= patch.length) {
    let end = patch.indexOf('\n', start);
    if (end < 0) end = patch.length;
    const line = patch.slice(start, end).trim();
    if (line.startsWith('*** '))
      for (const [marker, action] of PATCH_HEADERS)
        if (line.startsWith(marker)) {
          const path = line.slice(marker.length).trim();
          if (path) out.push({ path, action });
          break;
        }
    start = end + 1;
  }
  return out;
}

/** A shell's `-c` script (`["bash", "-lc", script]`), else undefined. */
function scriptOfArgv(argv: readonly unknown[]): string | undefined {
  const [shell, flag, script] = argv;
  return argv.length === 3 &&
    typeof shell === 'string' &&
    /^(?:.*\/)?(?:ba|z|da)?sh$/.test(shell) &&
    (flag === '-c' || flag === '-lc') &&
    typeof script === 'string'
    ? script
    : undefined;
}

/**
 * A shell call's files: apply_patch run through the shell, as Codex itself recognises it
 * (parser.rs's `ParseMode::Lenient`: `["apply_patch", patch]`, or a script
 * `apply_patch <<'EOF'\n…\nEOF`), else the files a read command names (shared/shell-reads.ts).
 */
function readShellCall(input: unknown): FileTouchRead[] {
  if (!isObject(input)) return [];
  const command = input.command ?? input.cmd;
  let script: string | undefined;
  if (Array.isArray(command)) {
    if (command[0] === 'apply_patch' && typeof command[1] === 'string') return readPatchFiles(command[1]);
    script = scriptOfArgv(command);
    if (script === undefined)
      return command.every((w) => typeof w === 'string')
        ? readArgvFiles(command as string[]).map((path) => ({ path, action: 'read' as const }))
        : [];
  } else if (typeof command === 'string') script = command;
  if (script === undefined) return [];
  if (/^\s*apply_patch\s+<</.test(script)) return readPatchFiles(script);
  return readCommandFiles(script).map((path) => ({ path, action: 'read' as const }));
}

/** apply_patch's input: a custom tool's `{input}` (the patch), or an older function call's `{input}`. */
function readPatchCall(input: unknown): FileTouchRead[] {
  if (typeof input === 'string') return readPatchFiles(input);
  return isObject(input) && typeof input.input === 'string' ? readPatchFiles(input.input) : [];
}

export const CODEX_FILE_TOOLS: readonly FileToolSpec[] = [
  { name: 'apply_patch', readFiles: readPatchCall },
  { name: 'exec_command', readFiles: readShellCall },
  { name: 'shell_command', readFiles: readShellCall },
  { name: 'shell', readFiles: readShellCall },
  { name: 'local_shell', readFiles: readShellCall },
];
