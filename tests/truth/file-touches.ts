import { parseJsonLines } from './types';

// The files a real log's tool calls read and changed, read from its raw records alone (no engine
// code): what the built-in summary's "files read, edited and written" must name. Each agent's
// tools as its log writes them (the engine's dialect descriptors cite their upstream sources):
// * Codex CLI rollouts: `apply_patch` (a `custom_tool_call` whose `input` is the patch, or a
//   `function_call` whose arguments' `input` is), its file headers `*** Add File: ` (written),
//   `*** Update File: ` (edited), `*** Delete File: `, `*** Move to: ` (written); the shell tools
//   `exec_command` (`cmd`), `shell_command` (`command`), `shell` (`command`, an argv), and
//   `local_shell_call` items (`action.command`, an argv).
// * Gemini CLI chats: `read_file` (`file_path`, earlier `absolute_path`), `write_file`, `replace`
//   (`file_path`), `read_many_files` (`include` entries without a glob), `run_shell_command`.
// * pi sessions: `read`, `write`, `edit` (`path`), `bash` (`command`).
// * Cline API histories: `read_file` (`path`), `write_to_file`, `replace_in_file` (`absolutePath`
//   or `path`), `execute_command` (`command`).
// A shell command reads the files it names when it is one `cat`, `nl`, `head`, `tail` or
// `sed -n 'N,Mp'` of literal operands and nothing more (the engine's documented set): here by
// removing quoted parts and refusing any shell operator, substitution or glob left, then taking
// the words.

export interface FileTouches {
  read: Set<string>;
  changed: Set<string>;
}

type Raw = Record<string, unknown>;
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function words(command: string): string[] | undefined {
  const unquoted = command.replace(/'[^']*'|"[^"]*"/g, 'Q');
  if (/[|&;<>()$`*?[\n\r\\]/.test(unquoted) || /["']/.test(unquoted)) return undefined;
  if (/[$`]/.test(command.replace(/'[^']*'/g, ''))) return undefined;
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

const RANGES = /^\d+(,(\d+|\$))?p(;\d+(,(\d+|\$))?p)*;?$/;

function readsOfArgv(argv: string[]): string[] {
  const program = (argv[0] ?? '').split('/').at(-1);
  const args = argv.slice(1);
  const out: string[] = [];
  if (program === 'sed') {
    if (args[0] !== '-n' || !RANGES.test((args[1] ?? '').replace(/\s/g, ''))) return [];
    out.push(...args.slice(2));
  } else if (program === 'cat') {
    for (const a of args) if (!/^-[AbeEnstTuv]+$/.test(a)) out.push(a);
    if (args.some((a) => a.startsWith('-') && !/^-[AbeEnstTuv]+$/.test(a))) return [];
  } else if (program === 'nl') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (/^-[bdfhilnsvw]$/.test(a)) i++;
      else if (!a.startsWith('-')) out.push(a);
    }
  } else if (program === 'head' || program === 'tail') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (a === '-n' || a === '-c') i++;
      else if (/^-(\d+|[nc]\d+|q|v)$/.test(a)) continue;
      else if (a.startsWith('-')) return [];
      else out.push(a);
    }
  } else return [];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character is no path here
  return out.every((p) => p !== '-' && p.length <= 4096 && !/[\u0000-\u001f\u007f-\u009f]/.test(p))
    ? out
    : [];
}

function readsOfCommand(command: string): string[] {
  const w = words(command.trim());
  return w ? readsOfArgv(w) : [];
}

function patch(touches: FileTouches, body: string): void {
  for (const line of body.split('\n')) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trim());
    if (m?.[2]?.trim()) touches.changed.add(m[2].trim());
  }
}

function shellArgv(touches: FileTouches, argv: unknown[]): void {
  if (!argv.every((a) => typeof a === 'string')) return;
  const [a0, a1, a2] = argv as string[];
  if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(a0 ?? '') && (a1 === '-c' || a1 === '-lc'))
    shellLine(touches, a2 ?? '');
  else if (a0 === 'apply_patch' && a1) patch(touches, a1);
  else for (const p of readsOfArgv(argv as string[])) touches.read.add(p);
}

function shellLine(touches: FileTouches, command: string): void {
  if (/^\s*apply_patch\s+<</.test(command)) patch(touches, command);
  else for (const p of readsOfCommand(command)) touches.read.add(p);
}

export function readCodexFileTouches(raw: string): FileTouches {
  const touches: FileTouches = { read: new Set(), changed: new Set() };
  for (const r of parseJsonLines(raw)) {
    const p = isRaw(r.payload) ? r.payload : r;
    if (p.type === 'custom_tool_call' && p.name === 'apply_patch' && typeof p.input === 'string')
      patch(touches, p.input);
    else if (p.type === 'local_shell_call' && isRaw(p.action) && Array.isArray(p.action.command))
      shellArgv(touches, p.action.command);
    else if (p.type === 'function_call' && typeof p.arguments === 'string') {
      let a: unknown;
      try {
        a = JSON.parse(p.arguments);
      } catch {
        continue;
      }
      if (!isRaw(a)) continue;
      const command = p.name === 'exec_command' ? a.cmd : a.command;
      if (p.name === 'apply_patch' && typeof a.input === 'string') patch(touches, a.input);
      else if (p.name === 'exec_command' || p.name === 'shell_command' || p.name === 'shell') {
        if (Array.isArray(command)) shellArgv(touches, command);
        else if (typeof command === 'string') shellLine(touches, command);
      }
    }
  }
  return touches;
}

export function readGeminiFileTouches(raw: string): FileTouches {
  const touches: FileTouches = { read: new Set(), changed: new Set() };
  for (const m of (JSON.parse(raw) as { messages?: unknown[] }).messages ?? []) {
    if (!isRaw(m) || !Array.isArray(m.toolCalls)) continue;
    for (const call of m.toolCalls) {
      if (!isRaw(call) || !isRaw(call.args)) continue;
      const a = call.args;
      if (call.name === 'read_file') {
        const path = text(a.file_path) ?? text(a.absolute_path);
        if (path) touches.read.add(path);
      } else if (call.name === 'write_file' || call.name === 'replace') {
        const path = text(a.file_path);
        if (path) touches.changed.add(path);
      } else if (call.name === 'read_many_files' && Array.isArray(a.include)) {
        for (const p of a.include) if (typeof p === 'string' && p && !/[*?[{]/.test(p)) touches.read.add(p);
      } else if (call.name === 'run_shell_command' && typeof a.command === 'string')
        for (const p of readsOfCommand(a.command)) touches.read.add(p);
    }
  }
  return touches;
}

export function readPiFileTouches(raw: string): FileTouches {
  const touches: FileTouches = { read: new Set(), changed: new Set() };
  for (const r of parseJsonLines(raw)) {
    const message = isRaw(r.message) ? r.message : undefined;
    if (!message || !Array.isArray(message.content)) continue;
    // pi runs no tool call of an answer that ended in an error or an abort (its arguments cut off
    // mid-stream: "Unterminated string in JSON"), badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/agent/src/agent-loop.ts:195-199.
    if (message.stopReason === 'error' || message.stopReason === 'aborted') continue;
    for (const b of message.content) {
      if (!isRaw(b) || b.type !== 'toolCall' || !isRaw(b.arguments)) continue;
      const path = text(b.arguments.path);
      if (b.name === 'read' && path) touches.read.add(path);
      else if ((b.name === 'write' || b.name === 'edit') && path) touches.changed.add(path);
      else if (b.name === 'bash' && typeof b.arguments.command === 'string')
        for (const p of readsOfCommand(b.arguments.command)) touches.read.add(p);
    }
  }
  return touches;
}

export function readClineHistoryFileTouches(raw: string): FileTouches {
  const touches: FileTouches = { read: new Set(), changed: new Set() };
  for (const m of JSON.parse(raw) as unknown[]) {
    if (!isRaw(m) || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (!isRaw(b) || b.type !== 'tool_use' || !isRaw(b.input)) continue;
      const path = text(b.input.absolutePath) ?? text(b.input.path);
      if (b.name === 'read_file' && path) touches.read.add(path);
      else if ((b.name === 'write_to_file' || b.name === 'replace_in_file') && path)
        touches.changed.add(path);
      else if (b.name === 'execute_command' && typeof b.input.command === 'string')
        for (const p of readsOfCommand(b.input.command)) touches.read.add(p);
    }
  }
  return touches;
}

/**
 * The tool outputs of a Codex rollout that state a non-zero exit code (a failed command), read
 * from its raw lines: "Process exited with code N" before `Output:` (exec_command), a first line
 * "Exit code: N" (shell_command), or JSON `metadata.exit_code` (shell, apply_patch of earlier
 * releases); `output.success === false` too.
 */
export function countCodexFailedOutputs(raw: string): number {
  let failed = 0;
  for (const r of parseJsonLines(raw)) {
    const p = isRaw(r.payload) ? r.payload : r;
    if (p.type !== 'function_call_output' && p.type !== 'custom_tool_call_output') continue;
    const out = p.output;
    if (isRaw(out) && out.success === false) {
      failed++;
      continue;
    }
    const s =
      typeof out === 'string' ? out : isRaw(out) && typeof out.content === 'string' ? out.content : '';
    let code: number | undefined;
    if (s.trimStart().startsWith('{')) {
      try {
        const j = JSON.parse(s);
        code = typeof j?.metadata?.exit_code === 'number' ? j.metadata.exit_code : undefined;
      } catch {}
    } else {
      const head = s.split('\nOutput:')[0] ?? '';
      const m = /^Exit code: (-?\d+)/.exec(s) ?? /Process exited with code (-?\d+)/.exec(head.slice(0, 400));
      code = m ? Number(m[1]) : undefined;
    }
    if (code !== undefined && code !== 0) failed++;
  }
  return failed;
}
