import { at } from '../../src/engine/assert';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Block, Session } from '../../src/engine/types';
import { CODEX_ROLLOUT as FIXTURE, timeAt } from '../fixtures/codex-rollout';
import { CORPUS, corpusFilesOf, corpusName, corpusOrSkip, restoredRealLogFiles } from '../helpers/corpus';

// Codex CLI rollouts (FORMAT.md §11): a hand-written rollout covering every mapping, then the real
// rollouts in ../shared/corpus checked against figures computed here from the raw lines.

async function parseFixture(name = 'rollout-2026-05-01T09-00-00-sess-1.jsonl', chunkBytes?: number) {
  return parseSession([createMemorySource(name, `${FIXTURE}\n`)], { chunkBytes });
}

const entryAt = (session: Session, lineNo: number) => {
  const entry = session.entries.find((e) => e.line === lineNo);
  if (!entry) throw new Error(`no entry on line ${lineNo}`);
  return entry;
};
const onlyBlock = (session: Session, lineNo: number): Block => at(entryAt(session, lineNo).blocks, 0);

describe('Codex CLI rollouts (hand-written fixture)', () => {
  it('fills the session meta from session_meta, turn_context and token_count', async () => {
    const session = await parseFixture();
    expect(session.format).toBe('codex-cli');
    expect(session.meta).toMatchObject({
      agent: 'Codex CLI',
      versions: ['0.120.0'],
      models: ['gpt-test-1'],
      sessionId: 'sess-1',
      cwd: '/home/dev/garden',
      gitBranch: 'feature/seeds',
      contextWindow: 200_000,
      startMs: Date.parse(timeAt(0)),
      endMs: Date.parse(timeAt(13)),
    });
    expect(entryAt(session, 1)).toMatchObject({ kind: 'meta', type: 'session_meta' });
    expect(entryAt(session, 5)).toMatchObject({ kind: 'meta', type: 'turn_context', model: 'gpt-test-1' });
  });

  it('maps messages: developer and injected context are meta user entries, images are kept', async () => {
    const session = await parseFixture();
    expect(entryAt(session, 3)).toMatchObject({ kind: 'user', role: 'user', isMeta: true });
    expect(entryAt(session, 4)).toMatchObject({ kind: 'user', isMeta: true });
    expect(entryAt(session, 6)).toMatchObject({ kind: 'user', isMeta: false });
    expect(entryAt(session, 6).blocks).toEqual([
      { kind: 'text', text: 'Plant the tomato seeds.', chars: 23 },
      { kind: 'image', mediaType: 'image/png', base64Chars: 'data:image/png;base64,AAAA'.length },
    ]);
    expect(entryAt(session, 26)).toMatchObject({ kind: 'assistant', role: 'assistant' });
    expect(onlyBlock(session, 26)).toMatchObject({ kind: 'text', text: 'Seeds planted.' });
    expect(session.userTurns).toBe(1);
  });

  it('maps reasoning to thinking blocks, summarized or encrypted only', async () => {
    const session = await parseFixture();
    expect(onlyBlock(session, 9)).toEqual({
      kind: 'thinking',
      text: 'Look at the beds.',
      chars: 17,
    });
    expect(onlyBlock(session, 10)).toEqual({
      kind: 'thinking',
      text: '',
      chars: 10,
      hidden: 'encrypted',
      encryptedChars: 10,
    });
  });

  it('maps tool calls and their outputs, paired by call_id', async () => {
    const session = await parseFixture();
    expect(onlyBlock(session, 11)).toMatchObject({
      kind: 'tool-use',
      id: 'call_a',
      name: 'shell_command',
      command: 'ls beds',
    });
    expect(onlyBlock(session, 14)).toMatchObject({
      kind: 'tool-use',
      id: 'call_b',
      name: 'apply_patch',
      filePath: 'beds/bed-1.md',
    });
    expect(onlyBlock(session, 15)).toMatchObject({
      kind: 'tool-use',
      id: 'call_c',
      name: 'local_shell_call',
      command: 'cat beds/bed-1.md',
    });
    expect(onlyBlock(session, 16)).toMatchObject({ kind: 'tool-use', name: 'web_search_call' });
    expect(onlyBlock(session, 16).kind === 'tool-use' && onlyBlock(session, 16)).toMatchObject({
      inputPreview: expect.stringContaining('tomato spacing'),
    });
    expect(entryAt(session, 13)).toMatchObject({ kind: 'user', role: 'user' });
    expect(onlyBlock(session, 13)).toMatchObject({
      kind: 'tool-result',
      toolUseId: 'call_a',
      text: 'bed-1\nbed-2',
      chars: 11,
    });
    expect(onlyBlock(session, 20)).toMatchObject({ kind: 'tool-result', toolUseId: 'call_b' });
    // The web search has no call_id and no output record: the only unpaired call.
    expect(session.toolPairs).toEqual({ matched: 3, unmatchedUses: 1, unmatchedResults: 0 });
    expect(session.toolResultEntry.get('call_c')).toBe(entryAt(session, 21).index);
  });

  it('keeps event_msg records as progress or meta entries named by payload.type', async () => {
    const session = await parseFixture();
    expect(entryAt(session, 7)).toMatchObject({ kind: 'progress', detailType: 'user_message' });
    expect(entryAt(session, 17)).toMatchObject({ kind: 'progress', detailType: 'exec_command_end' });
    expect(entryAt(session, 2)).toMatchObject({ kind: 'meta', detailType: 'task_started' });
    expect(entryAt(session, 25)).toMatchObject({ kind: 'meta', detailType: 'context_compacted' });
    expect(entryAt(session, 8)).toMatchObject({ kind: 'meta', detailType: 'token_count' });
  });

  it('makes one API call per new token_count, with input_tokens as the context', async () => {
    const session = await parseFixture();
    // Line 8 has no info, line 19 repeats line 18 (same running total), line 24 is the estimate.
    expect(session.apiCalls.map((c) => c.line)).toEqual([12, 18, 28]);
    expect(session.apiCalls[0]).toMatchObject({
      model: 'gpt-test-1',
      usage: {
        inputTokens: 10_000,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 2_000,
        // output_tokens 300 holds the 100 of reasoning: total_tokens = input + output.
        outputTokens: 300,
      },
      contextTokens: 12_000,
    });
    expect(session.apiCalls.map((c) => c.contextTokens)).toEqual([12_000, 150_000, 9_000]);
    expect(entryAt(session, 12).apiCallIndex).toBe(0);
    // The row's words agree with the usage: output_tokens, the reasoning part of it (was 400 out).
    expect(entryAt(session, 12).summaryText).toBe('request: 12,000 tokens in, 300 out (100 of it reasoning)');
    expect(entryAt(session, 19).apiCallIndex).toBeUndefined();
    expect(session.peakContextTokens).toBe(150_000);
  });

  it('turns the compacted line into a compaction with pre/post tokens from the counts around it', async () => {
    const session = await parseFixture();
    expect(session.compactions).toHaveLength(1);
    expect(session.compactions[0]).toMatchObject({
      kind: 'compact',
      line: 22,
      trigger: 'auto',
      preTokens: 150_000,
      postTokens: 9_000,
      summaryTokens: 7_500,
      apiCallBefore: 1,
      apiCallAfter: 2,
    });
    expect(entryAt(session, 22).summaryText).toBe(
      'replacement history: 3 items · auto, inferred: inside a turn, after the model answered: only the automatic check runs there',
    );
  });

  it('keeps and counts unknown record kinds, with no errors or warnings', async () => {
    const session = await parseFixture();
    expect(session.unknownTypes).toEqual({
      'response_item:hologram': 1,
      'event_msg:weather_report': 1,
      ghost_record: 1,
    });
    expect(session.entries).toHaveLength(FIXTURE.split('\n').length);
    expect(session.issues.map((i) => [i.code, i.severity, i.line])).toEqual([
      ['unknown-record', 'info', 29],
      ['unknown-record', 'info', 30],
      ['unknown-record', 'info', 31],
    ]);
  });

  it('reads the same with tiny chunks and without the rollout file name', async () => {
    const whole = await parseFixture();
    const chunked = await parseFixture('anything.jsonl', 7);
    expect(chunked.format).toBe('codex-cli');
    expect(chunked.entries).toEqual(whole.entries);
    expect(chunked.apiCalls).toEqual(whole.apiCalls);
    expect(chunked.compactions).toEqual(whole.compactions);
  });
});

// biome-ignore lint/suspicious/noExplicitAny: raw JSON lines are read loosely, on purpose.
type Raw = Record<string, any>;

corpusOrSkip('Codex corpus tests');
const codexFiles = corpusFilesOf('codex-cli');

describe.skipIf(codexFiles.length === 0)('Codex CLI rollouts (corpus)', () => {
  it.each(codexFiles.map((f) => [corpusName(f), f]))('%s', async (_name, path) => {
    const records: Raw[] = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
    // A token_count is a request when it has last_token_usage and the running total moved (Codex
    // re-sends the previous count on rate-limit updates and after a compaction).
    const calls: { line: number; context: number }[] = [];
    const compactedLines: number[] = [];
    const callIds: string[] = [];
    const outputIds = new Set<string>();
    let lastTotal = '';
    records.forEach((r, i) => {
      const p = r.payload ?? {};
      if (r.type === 'compacted') compactedLines.push(i + 1);
      if (r.type === 'response_item' && p.type === 'function_call') callIds.push(p.call_id);
      if (r.type === 'response_item' && /_output$/.test(p.type)) outputIds.add(p.call_id);
      if (r.type !== 'event_msg' || p.type !== 'token_count' || !p.info?.last_token_usage) return;
      const total = JSON.stringify(p.info.total_token_usage);
      if (total !== lastTotal) calls.push({ line: i + 1, context: p.info.last_token_usage.input_tokens });
      lastTotal = total;
    });

    const session = await parseSession([createNodeFileSource(path)]);
    expect(session.format).toBe('codex-cli');
    expect(session.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(session.entries).toHaveLength(records.length);
    expect(session.apiCalls.map((c) => c.line)).toEqual(calls.map((c) => c.line));
    expect(session.apiCalls.map((c) => c.contextTokens)).toEqual(calls.map((c) => c.context));
    expect(session.compactions.map((c) => c.line)).toEqual(compactedLines);
    for (const c of session.compactions) {
      const before = calls.filter((x) => x.line < c.line).at(-1);
      const after = calls.find((x) => x.line > c.line);
      expect(c.kind).toBe('compact');
      expect(c.preTokens).toBe(before?.context);
      expect(c.postTokens).toBe(after?.context);
    }
    for (const id of callIds) {
      expect(outputIds.has(id), `function_call ${id} has an output`).toBe(true);
      expect(session.toolResultEntry.has(id)).toBe(true);
      expect(session.toolUseEntry.has(id)).toBe(true);
    }
  });
});

// Issue 18 item 8: the trigger of a compaction, inferred from where it falls (normalizer.ts,
// inferTrigger). The three real ones of the corpus are automatic: two inside a turn right after a
// tool output, one at a turn boundary after a call at 97% of the window. The manual shape (a
// compaction between turns at 29% of the window) is the last of them with the call before it
// lowered to 29%: the real records, one number changed.
const AT_TURN_START = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-29T22-19-12-019d3cf7-965c-7fb0-8eca-afeca7fe7b00.jsonl',
);
describe.skipIf(!existsSync(AT_TURN_START))(
  'Codex CLI: manual or automatic compaction (real rollouts)',
  () => {
    it('reads the corpus compactions as automatic, each saying why', async () => {
      const why: string[] = [];
      for (const path of codexFiles) {
        const session = await parseSession([createNodeFileSource(path)]);
        for (const c of session.compactions) {
          expect(c.trigger).toBe('auto');
          why.push(String(session.entries[c.entryIndex]?.summaryText).replace(/^.* · auto, inferred: /, ''));
        }
      }
      expect(why.sort()).toEqual([
        'at a turn boundary with the last call at 97% of the window, near the automatic limit',
        'inside a turn, after the model answered: only the automatic check runs there',
        'inside a turn, after the model answered: only the automatic check runs there',
      ]);
    });

    it('reads a compaction between turns far under the limit as a manual /compact', async () => {
      const lines = readFileSync(AT_TURN_START, 'utf8').split('\n');
      const at = lines.findIndex((l) => l.includes('"type":"compacted"'));
      const call = lines
        .slice(0, at)
        .map((l, i) => (l.includes('"last_token_usage"') ? i : -1))
        .reduce((a, b) => Math.max(a, b));
      const record = JSON.parse(lines[call]!);
      record.payload.info.last_token_usage.input_tokens = 75_000; // 29% of 258,400
      lines[call] = JSON.stringify(record);
      const session = await parseSession([createMemorySource(basename(AT_TURN_START), lines.join('\n'))]);
      expect(session.compactions).toHaveLength(1);
      expect(session.compactions[0]).toMatchObject({ trigger: 'manual', preTokens: 75_000 });
      expect(session.entries[session.compactions[0]!.entryIndex]?.summaryText).toContain(
        'manual, inferred: at a turn boundary with the last call at 29% of the window, far under the automatic limit',
      );
    });
  },
);

describe('Codex CLI: known records', () => {
  it('keeps a ghost_snapshot (the /undo snapshot) as a known meta record', async () => {
    // Shape: openai/codex@001cb8e233f250c7086c791c51390286c087faea:codex-rs/protocol/src/models.rs ResponseItem::GhostSnapshot.
    const text = `${FIXTURE}\n${JSON.stringify({
      timestamp: timeAt(14),
      type: 'response_item',
      payload: {
        type: 'ghost_snapshot',
        ghost_commit: { id: 'abc123', parent: 'def456', preexisting_untracked_files: [] },
      },
    })}\n`;
    const session = await parseSession([
      createMemorySource('rollout-2026-05-01T09-00-00-sess-1.jsonl', text),
    ]);
    expect(session.entries.at(-1)).toMatchObject({ kind: 'meta', subtype: 'ghost_snapshot' });
    expect(session.unknownTypes['response_item:ghost_snapshot']).toBeUndefined();
  });

  it('reads a running total that restarts at its own request (a resume) as a new call, not disorder', async () => {
    // A real rollout (MoonLadderStudios/MoonMind, CLI 0.57): 2,993,540 in total, a 3-hour gap, a
    // new prompt, then a total of 60,023 equal to that request's own usage, growing from there.
    const plain = await parseFixture();
    const usage = (input: number, output: number) => ({
      input_tokens: input,
      cached_input_tokens: 0,
      output_tokens: output,
      reasoning_output_tokens: 0,
      total_tokens: input + output,
    });
    const count = (s: number, total: object, last: object) =>
      JSON.stringify({
        timestamp: timeAt(s),
        type: 'event_msg',
        payload: { type: 'token_count', info: { total_token_usage: total, last_token_usage: last } },
      });
    const resumed = [
      JSON.stringify({
        timestamp: timeAt(20),
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go on.' }] },
      }),
      count(21, usage(90, 5), usage(90, 5)),
      count(22, usage(90 + 120, 5 + 7), usage(120, 7)),
    ];
    const text = `${FIXTURE}\n${resumed.join('\n')}\n`;
    const session = await parseSession([
      createMemorySource('rollout-2026-05-01T09-00-00-sess-1.jsonl', text),
    ]);
    expect(session.apiCalls.length).toBe(plain.apiCalls.length + 2);
    expect(session.issues.filter((i) => i.severity !== 'info')).toEqual(
      plain.issues.filter((i) => i.severity !== 'info'),
    );
    expect(entryAt(session, FIXTURE.split('\n').length + 2).summaryText).toMatch(/running total restarted/);
    // A count moved back after later ones is still disorder.
    const moved = `${FIXTURE}\n${[resumed[0], resumed[2], resumed[1]].join('\n')}\n`;
    const shuffled = await parseSession([
      createMemorySource('rollout-2026-05-01T09-00-00-sess-1.jsonl', moved),
    ]);
    expect(shuffled.issues.map((i) => i.message).join('\n')).toMatch(/out of order/);
  });

  it('takes the warnings Codex records as user messages for injected context, not turns', async () => {
    // Codex's `record_model_warning` writes "Warning: …" as a user-role message, with no
    // user_message event (a real rollout, Ogekuri/G, CLI 0.70: 11 prompts typed, 12 user turns
    // counted before). The three texts of openai/codex's contextual-fragment list.
    const warnings = [
      'Warning: apply_patch was requested via shell_command. Use the apply_patch tool instead of exec_command.',
      'Warning: The maximum number of unified exec processes you can keep open is 60 and you currently have 61 processes open.',
      'Warning: Your account was flagged for potentially high-risk cyber activity and this request was routed to gpt-5.2 as a fallback.',
    ];
    const plain = await parseFixture();
    const text = `${FIXTURE}\n${warnings
      .map((w, i) =>
        JSON.stringify({
          timestamp: timeAt(14 + i),
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: w }] },
        }),
      )
      .join('\n')}\n`;
    const session = await parseSession([
      createMemorySource('rollout-2026-05-01T09-00-00-sess-1.jsonl', text),
    ]);
    expect(session.userTurns).toBe(plain.userTurns);
    for (const e of session.entries.slice(-3)) expect(e).toMatchObject({ kind: 'user', isMeta: true });
  });
});

// Issue 18 item 8: rollouts of Aug–Sep 2025, before openai/codex PR #3380 (JaydenXsoe/ocodex's
// committed ~/.codex, restored by scripts/restore-real-logs.mjs): a `{id, timestamp,
// instructions, git}` line, bare response items, `{record_type: "state"}` lines, no token counts.
// Each read to the last line: no errors (34 files gave "At payload: expected an object" before),
// tool calls paired with their outputs, no API call, and a note that no usage is recorded.
const earlyRollouts = restoredRealLogFiles().filter((f) => f.includes('JaydenXsoe__ocodex/.codex/sessions/'));
describe.skipIf(earlyRollouts.length === 0)('Codex CLI: the early rollout format (real logs)', () => {
  it.each(earlyRollouts.map((f) => [basename(f), f]))('%s', async (_name, path) => {
    const records: Raw[] = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
    const session = await parseSession([createNodeFileSource(path)]);
    expect(session.format).toBe('codex-cli');
    expect(session.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(session.issues.map((i) => i.code)).toEqual(['no-usage']);
    expect(session.entries).toHaveLength(records.length);
    expect(session.unknownTypes).toEqual({});
    expect(session.apiCalls).toEqual([]);
    expect(session.meta.sessionId).toBe(records[0]!.id);
    const callIds = records.filter((r) => r.type === 'function_call').map((r) => r.call_id);
    for (const id of callIds) {
      expect(session.toolUseEntry.has(id)).toBe(true);
      expect(session.toolResultEntry.has(id)).toBe(true);
    }
    const prompts = records.filter(
      (r) =>
        r.type === 'message' &&
        r.role === 'user' &&
        !/^<(user_instructions|environment_context)>/.test(r.content?.[0]?.text ?? ''),
    );
    expect(
      session.entries.filter((e) => e.kind === 'user' && !e.isMeta && e.blocks[0]?.kind === 'text'),
    ).toHaveLength(prompts.length);
  });

  it('is detected by its first line alone', async () => {
    const path = earlyRollouts.find((f) => f.endsWith('.jsonl'))!;
    const session = await parseSession([createMemorySource('anything.jsonl', readFileSync(path, 'utf8'))]);
    expect(session.format).toBe('codex-cli');
  });
});
