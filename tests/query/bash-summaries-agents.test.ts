import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { BASH_SUMMARY_THRESHOLD_CHARS, computeBashSummaries } from '../../src/engine/query/bash-summaries';
import { foreignFiles } from '../helpers/corpus';

// Bash-output summarization over other agents' real logs: each agent's own shell tool is counted
// (Gemini CLI's `run_shell_command`, pi's `bash`, Cline's `execute_command`). They had none, so
// `compactlab bash-summaries` said "0 of 0 shell results (Bash)" on a Gemini CLI chat of 96
// shell calls. A Cline UI log writes a command's output in chunks, one `command_output` message
// each: 62 results for 28 commands, each chunk judged alone (none over the threshold) where the
// model is sent the output whole. Each figure is checked against a plain count of the raw records.

interface PlainCount {
  /** Shell calls with a result. */
  calls: number;
  /** Each such call's output length (UTF-16 units, as the engine counts). */
  chars: number[];
}

type Json = Record<string, unknown>;

function countGeminiChat(text: string): PlainCount {
  const ids = new Set<string>();
  for (const m of (JSON.parse(text) as { messages: Json[] }).messages)
    for (const call of (m.toolCalls as Json[] | undefined) ?? [])
      if (call.name === 'run_shell_command' && call.result !== undefined) ids.add(call.id as string);
  return { calls: ids.size, chars: [] };
}

function countPi(text: string): PlainCount {
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const message = (JSON.parse(line) as Json).message as Json | undefined;
    if (message?.role === 'toolResult' && message.toolName === 'bash') ids.add(message.toolCallId as string);
  }
  return { calls: ids.size, chars: [] };
}

function countClineUi(text: string): PlainCount {
  const chars: number[] = [];
  let current = -1;
  for (const r of JSON.parse(text) as Json[]) {
    const what = r.ask ?? r.say;
    if (what === 'command' && r.partial !== true) {
      chars.push(-1);
      current = chars.length - 1;
    } else if (what === 'command_output' && current >= 0) {
      chars[current] = Math.max(0, chars[current]!) + String(r.text ?? '').length;
    }
  }
  const answered = chars.filter((n) => n >= 0);
  return { calls: answered.length, chars: answered };
}

const COUNTERS: Record<string, (text: string) => PlainCount> = {
  'gemini-cli-json': countGeminiChat,
  pi: countPi,
  'cline-ui': countClineUi,
};

const files = foreignFiles();
describe.skipIf(files.length === 0)("bash-output summaries on other agents' real logs", () => {
  it("counts each agent's shell calls as a plain count of the raw records does, a chunked output once", async () => {
    const seen = new Map<string, number>();
    for (const file of files) {
      const bytes = readFileSync(file);
      const session = await parseSession([createMemorySource(basename(file), bytes)]);
      const count = COUNTERS[session.format];
      if (!count) continue;
      const plain = count(bytes.toString('utf8'));
      const r = computeBashSummaries(session);
      expect(r.shellResults, file).toBe(plain.calls);
      if (session.format === 'cline-ui')
        expect(
          r.rows.map((row) => row.chars),
          file,
        ).toEqual(plain.chars.filter((n) => n > BASH_SUMMARY_THRESHOLD_CHARS));
      seen.set(session.format, (seen.get(session.format) ?? 0) + r.shellResults);
    }
    // Every agent has shell calls in the corpus (96 + 60 + 33 Gemini CLI, 14 pi, 28 Cline).
    for (const format of Object.keys(COUNTERS)) expect(seen.get(format), format).toBeGreaterThan(10);
  }, 60_000);
});
if (files.length === 0)
  describe.skip("bash-output summaries on other agents' real logs — ../shared/corpus is absent", () =>
    it('skipped'));
