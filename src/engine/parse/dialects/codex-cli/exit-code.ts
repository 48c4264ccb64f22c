// The exit code Codex CLI writes into a shell call's output, the only place a rollout says a
// command failed (its `function_call_output` has no error flag; `success` appears on a few
// releases' outputs only). Three shapes, as the real rollouts of the corpora write them (79 of
// their 813 outputs with a non-zero code):
//   exec_command (unified exec): a header before `Output:`, "Process exited with code N";
//   shell_command: a first line "Exit code: N";
//   shell / apply_patch (earlier releases): the output is JSON, `{"output": …, "metadata": {"exit_code": N}}`.
// Only the header is read, never the command's own output (which may print anything).

/** Characters of an output's start searched for the unified-exec header (ours: it is ~120). */
const HEADER_CHARS = 400;

/** The exit code an output states, or undefined when it states none. */
export function readCodexExitCode(output: string): number | undefined {
  const start = output.trimStart();
  if (start.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(start);
      const metadata =
        typeof value === 'object' && value !== null ? (value as { metadata?: unknown }).metadata : undefined;
      const code =
        typeof metadata === 'object' && metadata !== null
          ? (metadata as { exit_code?: unknown }).exit_code
          : undefined;
      return typeof code === 'number' ? code : undefined;
    } catch {
      return undefined;
    }
  }
  const first = /^Exit code: (-?\d+)\r?$/m.exec(start.slice(0, start.indexOf('\n') + 1 || start.length));
  if (first) return Number(first[1]);
  const head = start.slice(0, HEADER_CHARS);
  const end = head.indexOf('\nOutput:');
  const exited = /^Process exited with code (-?\d+)$/m.exec(end < 0 ? head : head.slice(0, end));
  return exited ? Number(exited[1]) : undefined;
}
