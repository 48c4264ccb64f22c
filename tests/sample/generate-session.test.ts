import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN_MODEL } from '../../sample/accounting';
import { createCompactionModel } from '../../sample/compaction-model';
import {
  GENERATOR_VERSION,
  type GeneratedFile,
  generateSession,
  generateSessionLines,
} from '../../sample/generate-session';
import { createSampleIndex, type SampleIndex } from '../../sample/sample-index';
import { SAMPLE_OPTIONS, TINY_OPTIONS } from '../../sample/sample-options';
import { buildFixtures } from '../fixtures/make-fixtures';

// Everything below is checked on the raw JSON lines, independently of the engine's parser.

// biome-ignore lint/suspicious/noExplicitAny: raw records of arbitrary shape, probed field by field.
type Rec = Record<string, any>;

const session = generateSession(SAMPLE_OPTIONS);
// The sample is labelled 2.1.19: auto-compact at 155,000, warning / microcompact at 135,000.
const { thresholds, eligibleTools } = createCompactionModel('2.1.19', MAIN_MODEL, true);
const parse = (file: GeneratedFile): Rec[] =>
  file.text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Rec);
const mainFile = session.files[0] as GeneratedFile;
const main = parse(mainFile);
const others = session.files.slice(1);

interface Call {
  id: string;
  index: number;
  context: number;
  output: number;
}

/** One entry per API response (lines grouped by message.id), in file order. */
function apiCalls(records: Rec[]): Call[] {
  const calls: Call[] = [];
  records.forEach((r, index) => {
    if (r.type !== 'assistant') return;
    const u = r.message.usage;
    const last = calls[calls.length - 1];
    if (last && last.id === r.message.id) {
      last.output = Math.max(last.output, u.output_tokens);
      return;
    }
    calls.push({
      id: r.message.id,
      index,
      context: u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens,
      output: u.output_tokens,
    });
  });
  return calls;
}

function blocks(records: Rec[], type: string): Rec[] {
  const out: Rec[] = [];
  for (const r of records) {
    const content = r.message?.content;
    if (Array.isArray(content)) for (const b of content) if (b.type === type) out.push({ ...b, record: r });
  }
  return out;
}

const calls = apiCalls(main);
const firstCallAfter = (index: number): Call => calls.find((c) => c.index > index) as Call;
const lastCallBefore = (index: number): Call => calls.filter((c) => c.index < index).at(-1) as Call;
const boundaries = main.map((r, i) => ({ r, i })).filter(({ r }) => r.subtype === 'compact_boundary');

describe('generateSession', () => {
  it('is deterministic: same seed, same bytes; another seed, other bytes', () => {
    const again = generateSession(SAMPLE_OPTIONS);
    expect(again.files.map((f) => f.name)).toEqual(session.files.map((f) => f.name));
    again.files.forEach((f, i) => {
      expect(f.text === session.files[i]?.text).toBe(true);
    });
    expect(generateSession({ ...SAMPLE_OPTIONS, seed: 1 }).files[0]?.text).not.toBe(mainFile.text);
  });

  it('writes one valid JSON object per line in every file, each line ending in a newline', () => {
    for (const file of session.files) {
      expect(file.text.endsWith('\n')).toBe(true);
      const lines = file.text.slice(0, -1).split('\n');
      for (const line of lines)
        expect(() => JSON.parse(line), `${file.name}: ${line.slice(0, 80)}`).not.toThrow();
    }
  });

  it('keeps the main file between 1 and 3.5 MB and names files like Claude Code 2.1.x', () => {
    const bytes = Buffer.byteLength(mainFile.text);
    expect(bytes).toBeGreaterThan(1_000_000);
    expect(bytes).toBeLessThan(3_500_000);
    expect(mainFile.name).toBe(`${session.sessionId}.jsonl`);
    for (const f of others)
      expect(f.name).toMatch(new RegExp(`^${session.sessionId}/subagents/agent-[\\w-]+\\.jsonl$`));
  });

  it('has several hundred API calls, streamed one line per block with usage on each line', () => {
    expect(new Set(calls.map((c) => c.id)).size).toBeGreaterThanOrEqual(300);
    const byId = new Map<string, Rec[]>();
    for (const r of main)
      if (r.type === 'assistant') byId.set(r.message.id, [...(byId.get(r.message.id) ?? []), r]);
    let multiLine = 0;
    for (const lines of byId.values()) {
      if (lines.length > 1) multiLine++;
      const first = lines[0]?.message.usage;
      let previous = 0;
      lines.forEach((line, i) => {
        const u = line.message.usage;
        expect(u.cache_read_input_tokens).toBe(first.cache_read_input_tokens);
        expect(u.cache_creation_input_tokens).toBe(first.cache_creation_input_tokens);
        expect(u.output_tokens).toBeGreaterThanOrEqual(previous);
        previous = u.output_tokens;
        expect(line.requestId).toBe(lines[0]?.requestId);
        expect(line.message.stop_reason === null).toBe(i < lines.length - 1);
      });
    }
    expect(multiLine).toBeGreaterThan(100);
  });

  it('grows the context by the previous output plus what was added, except across compactions', () => {
    const resets = new Set(main.flatMap((r, i) => (/compact_boundary$/.test(r.subtype ?? '') ? [i] : [])));
    for (let k = 1; k < calls.length; k++) {
      const prev = calls[k - 1] as Call;
      const next = calls[k] as Call;
      const reset = [...resets].some((i) => i > prev.index && i < next.index);
      if (!reset) expect(next.context).toBeGreaterThanOrEqual(prev.context + prev.output);
    }
    expect(Math.max(...calls.map((c) => c.context))).toBeGreaterThanOrEqual(thresholds.warning);
  });

  it('has an auto compaction: null parent, preTokens counted from the last call, a 9-section summary, a small next context', () => {
    const auto = boundaries.filter(({ r }) => r.compactMetadata?.trigger === 'auto');
    expect(auto.length).toBeGreaterThanOrEqual(1);
    for (const { r, i } of auto) {
      expect(r.parentUuid).toBeNull();
      expect(main.some((x) => x.uuid === r.logicalParentUuid)).toBe(true);
      const before = lastCallBefore(i);
      // 2.1.x counts the last usage plus its estimate of what followed (tests/sample/sample-replay.test.ts).
      expect(r.compactMetadata.preTokens).toBeGreaterThanOrEqual(thresholds.autoCompact);
      expect(r.compactMetadata.preTokens).toBeGreaterThan(before.context + before.output);
      expect(before.context + before.output).toBeLessThan(thresholds.warning);
      const summary = main[i + 1] as Rec;
      expect(summary.isCompactSummary).toBe(true);
      expect(summary.parentUuid).toBe(r.uuid);
      expect(typeof summary.message.content).toBe('string');
      expect(summary.message.content).toMatch(
        /^This session is being continued from a previous conversation that ran out of context\. The summary below covers the earlier portion of the conversation\.\n\nSummary:\n1\. Primary Request and Intent:/,
      );
      for (const n of [2, 3, 4, 5, 6, 7, 8, 9]) expect(summary.message.content).toContain(`\n${n}. `);
      const after = firstCallAfter(i);
      expect(after.context).toBeGreaterThan(20_000);
      expect(after.context).toBeLessThan(35_000);
    }
  });

  it('has one manual compaction followed by the /compact command traces and re-attached files', () => {
    const manual = boundaries.filter(({ r }) => r.compactMetadata?.trigger === 'manual');
    expect(manual).toHaveLength(1);
    const { r, i } = manual[0] as { r: Rec; i: number };
    expect(r.parentUuid).toBeNull();
    const before = lastCallBefore(i);
    expect(r.compactMetadata.preTokens).toBe(before.context + before.output);
    const [summary, caveat, command, stdout, ...rest] = main.slice(i + 1, i + 8);
    expect(summary?.isCompactSummary).toBe(true);
    expect(caveat?.isMeta).toBe(true);
    expect(caveat?.message.content).toContain('<local-command-caveat>');
    expect(command?.message.content).toContain('<command-name>/compact</command-name>');
    expect(command?.message.content).toContain('<command-args>focus on the parser</command-args>');
    expect(stdout?.message.content).toContain('<local-command-stdout>');
    const attached = rest.filter((x) => x.type === 'attachment').map((x) => x.attachment.type);
    expect(attached).toContain('compact_file_reference');
    expect(attached).toContain('file');
    expect(firstCallAfter(i).context).toBeLessThan(35_000);
  });

  it('has one microcompaction that clears earlier results of eligible tools, saving what they weighed', () => {
    const micro = main.map((r, i) => ({ r, i })).filter(({ r }) => r.subtype === 'microcompact_boundary');
    expect(micro).toHaveLength(1);
    const { r, i } = micro[0] as { r: Rec; i: number };
    expect(r.parentUuid).not.toBeNull();
    const meta = r.microcompactMetadata;
    const uses = new Map(blocks(main.slice(0, i), 'tool_use').map((b) => [b.id, b.name]));
    const results = new Map(blocks(main.slice(0, i), 'tool_result').map((b) => [b.tool_use_id, b]));
    let chars = 0;
    for (const id of meta.compactedToolIds) {
      expect([...eligibleTools]).toContain(uses.get(id));
      chars += JSON.stringify(results.get(id)?.content).length;
    }
    // Claude Code's estimate of the cleared results' size (4 characters per token).
    expect(meta.tokensSaved).toBeGreaterThan(chars / 4.5);
    expect(meta.tokensSaved).toBeLessThan(chars / 3);
    // preTokens is the last usage; the real tokens freed (at 3.3 characters per token) exceed the estimate.
    const before = lastCallBefore(i);
    expect(meta.preTokens).toBe(before.context + before.output);
    expect(meta.preTokens).toBeGreaterThanOrEqual(thresholds.warning);
    const next = firstCallAfter(i);
    expect(next.context).toBeLessThan(meta.preTokens - meta.tokensSaved);
    expect(next.context).toBeGreaterThan(meta.preTokens - meta.tokensSaved * 1.4);
  });

  it('gives every tool_use exactly one tool_result, pointing back at its assistant line', () => {
    for (const file of session.files) {
      const records = parse(file);
      const uses = blocks(records, 'tool_use');
      const results = blocks(records, 'tool_result');
      const count = new Map<string, number>();
      for (const res of results) count.set(res.tool_use_id, (count.get(res.tool_use_id) ?? 0) + 1);
      for (const use of uses) {
        expect(count.get(use.id), `${file.name} ${use.id}`).toBe(1);
        const result = results.find((x) => x.tool_use_id === use.id) as Rec;
        expect(result.record.sourceToolAssistantUUID).toBe(use.record.uuid);
      }
      expect(results).toHaveLength(uses.length);
    }
  });

  it('links every parentUuid to an earlier entry of the same file', () => {
    for (const file of session.files) {
      const seen = new Set<string>();
      for (const r of parse(file)) {
        if (r.parentUuid) expect(seen.has(r.parentUuid), `${file.name} ${r.uuid}`).toBe(true);
        if (r.uuid) seen.add(r.uuid);
      }
    }
  });

  it('writes the subagent to its own sidechain file whose agentId matches the Task result', () => {
    const taskResults = main.filter(
      (r) => r.toolUseResult?.agentId && r.toolUseResult.status === 'completed',
    );
    expect(taskResults.length).toBeGreaterThanOrEqual(1);
    const subagents = others.filter((f) => !f.name.includes('agent-acompact-'));
    expect(subagents.length).toBe(taskResults.length);
    for (const file of subagents) {
      const records = parse(file);
      const agentId = records[0]?.agentId;
      expect(file.name).toContain(`agent-${agentId}.jsonl`);
      expect(taskResults.some((r) => r.toolUseResult.agentId === agentId)).toBe(true);
      expect(records[0]?.parentUuid).toBeNull();
      for (const r of records) {
        expect(r.isSidechain).toBe(true);
        expect(r.agentId).toBe(agentId);
      }
      expect(apiCalls(records).length).toBeGreaterThanOrEqual(3);
    }
  });

  it('writes one compaction-call file per compaction', () => {
    const files = others.filter((f) => f.name.includes('agent-acompact-'));
    expect(files).toHaveLength(boundaries.length);
    for (const file of files) {
      const [prompt, answer] = parse(file);
      expect(prompt?.agentId).toMatch(/^acompact-[0-9a-f]{16}$/);
      expect(prompt?.message.content).toMatch(
        /^Your task is to create a detailed summary of the conversation so far/,
      );
      expect(answer?.message.content[0].text).toMatch(/^<analysis>[\s\S]*<summary>[\s\S]*<\/summary>$/);
    }
  });

  it('contains every record kind and tool a viewer has to handle', () => {
    const kinds = new Set(main.map((r) => (r.subtype ? `${r.type}/${r.subtype}` : r.type)));
    for (const k of [
      'user',
      'assistant',
      'progress',
      'attachment',
      'system/turn_duration',
      'system/stop_hook_summary',
      'system/api_error',
      'file-history-snapshot',
      'queue-operation',
      'summary',
      'last-prompt',
    ]) {
      expect(kinds, k).toContain(k);
    }
    const known =
      /^(user|assistant|system|progress|attachment|file-history-snapshot|queue-operation|summary|last-prompt)$/;
    expect(main.filter((r) => !known.test(r.type))).toHaveLength(1);
    const tools = new Set(blocks(main, 'tool_use').map((b) => b.name));
    for (const t of [
      'Read',
      'Edit',
      'Write',
      'Bash',
      'Grep',
      'Glob',
      'TodoWrite',
      'Task',
      'WebFetch',
      'MultiEdit',
    ]) {
      expect(tools, t).toContain(t);
    }
    expect(blocks(main, 'thinking').length).toBeGreaterThan(20);
    expect(blocks(main, 'image')).toHaveLength(1);
    const results = blocks(main, 'tool_result');
    expect(results.some((b) => b.is_error === true)).toBe(true);
    expect(
      results.some((b) => typeof b.content === 'string' && b.content.startsWith('<persisted-output>')),
    ).toBe(true);
    const progress = new Set(main.filter((r) => r.type === 'progress').map((r) => r.data.type));
    expect([...progress].sort()).toEqual(['agent_progress', 'bash_progress', 'hook_progress']);
  });

  it('spans several hours', () => {
    const times = main.filter((r) => r.timestamp).map((r) => Date.parse(r.timestamp));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(3 * 3_600_000);
  });

  it('keeps going to targetBytes, compacting and microcompacting where the model does', () => {
    const target = 6_000_000;
    let bytes = 0;
    let autos = 0;
    let micros = 0;
    for (const { file, line } of generateSessionLines({ seed: 3, targetBytes: target })) {
      if (!file.includes('/')) {
        bytes += Buffer.byteLength(line) + 1;
        if (line.includes('"subtype":"compact_boundary"') && line.includes('"trigger":"auto"')) autos++;
        if (line.includes('"subtype":"microcompact_boundary"')) micros++;
      }
    }
    expect(bytes).toBeGreaterThanOrEqual(target);
    expect(bytes).toBeLessThan(target * 1.1);
    // With microcompact on, each crossing of the warning threshold clears old results instead.
    expect(autos).toBeGreaterThanOrEqual(1);
    expect(micros).toBeGreaterThanOrEqual(2);
  });

  it('makes the tiny fixture: six API calls and one auto compaction', () => {
    const tiny = generateSession(TINY_OPTIONS);
    const records = parse(tiny.files[0] as GeneratedFile);
    expect(apiCalls(records)).toHaveLength(6);
    expect(
      records.filter((r) => r.subtype === 'compact_boundary').map((r) => r.compactMetadata.trigger),
    ).toEqual(['auto']);
  });
});

describe('committed files', () => {
  const root = resolve(import.meta.dirname, '../..');

  it('public/samples equals a fresh generation (regenerate with `npm run sample`)', () => {
    const dir = join(root, 'public', 'samples');
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as SampleIndex;
    expect(index).toEqual(createSampleIndex(session, GENERATOR_VERSION));
    for (const file of session.files) {
      expect(readFileSync(join(dir, file.name), 'utf8') === file.text, file.name).toBe(true);
    }
  });

  it('tests/fixtures equal a fresh build (regenerate with tests/fixtures/make-fixtures.ts)', () => {
    const fixtures = buildFixtures();
    expect(Object.keys(fixtures).sort()).toEqual([
      'broken.jsonl',
      'cline-api_conversation_history.json',
      'cline-task/api_conversation_history.json',
      'cline-task/task_metadata.json',
      'cline-task/ui_messages.json',
      'empty.jsonl',
      'not-a-transcript.json',
      'not-a-transcript.txt',
      'secrets.jsonl',
      'tiny.jsonl',
      'xss.jsonl',
    ]);
    for (const [name, text] of Object.entries(fixtures)) {
      expect(readFileSync(join(root, 'tests', 'fixtures', name), 'utf8') === text, name).toBe(true);
    }
  });
});
