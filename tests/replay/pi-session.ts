import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';

// Hand-written pi sessions (badlogic/pi-mono packages/coding-agent/docs/session.md, the shapes
// tests/fixtures/make-agent-fixtures.ts writes) with usage that follows the messages: each call's
// context is the system prompt plus every message the model sees at chars / 4 (pi's own
// estimate), so the log's figures and pi's cut search agree.

export interface PiToolCall {
  name: 'read' | 'edit' | 'write' | 'bash';
  path?: string;
  /** Characters of the result. */
  resultChars: number;
}

export interface PiCallSpec {
  /** Tool calls of the response; none = the run ends (stopReason "stop"). */
  tools?: PiToolCall[];
  /** Characters of the response's text. */
  textChars?: number;
}

export interface PiTurnSpec {
  promptChars: number;
  calls: PiCallSpec[];
  /** A `model_change` before the turn's prompt: the turn and those after run on this model. */
  switchTo?: { provider: string; model: string };
}

export interface PiCompactionSpec {
  /** After this turn's last call. */
  afterTurn: number;
  /** The first kept entry is this turn's prompt. */
  firstKeptTurn: number;
  summaryChars: number;
  /** Files the compaction's `details` list. */
  readFiles?: string[];
  modifiedFiles?: string[];
}

export interface PiSessionSpec {
  model?: string;
  /** The provider of `model` (default anthropic). */
  provider?: string;
  systemTokens?: number;
  turns: PiTurnSpec[];
  compactions?: PiCompactionSpec[];
}

const est = (chars: number) => Math.ceil(chars / 4);
const PREFIX_SUFFIX_CHARS = 96 + 11;

/** The session's JSONL text. */
export function buildPiSession(spec: PiSessionSpec): string {
  let model = spec.model ?? 'claude-sonnet-4-5';
  let provider = spec.provider ?? 'anthropic';
  const lines: unknown[] = [
    { type: 'session', version: 3, id: 'pi-test', timestamp: '2026-03-09T12:00:00.000Z', cwd: '/w' },
  ];
  let n = 0;
  let last: string | null = null;
  let clock = Date.UTC(2026, 2, 9, 12, 0, 0);
  const push = (fields: Record<string, unknown>): string => {
    n++;
    const id = `e${n.toString(16).padStart(7, '0')}`;
    clock += 1000;
    lines.push({
      type: fields.type,
      id,
      parentId: last,
      timestamp: new Date(clock).toISOString(),
      ...fields,
    });
    last = id;
    return id;
  };
  push({ type: 'model_change', provider, modelId: model });
  // The messages the model sees, as [turn, tokens]: a compaction drops those before its kept turn.
  let seen: { turn: number; tokens: number }[] = [];
  let summaryTokens = 0;
  const system = spec.systemTokens ?? 3_000;
  const context = () => system + summaryTokens + seen.reduce((a, m) => a + m.tokens, 0);
  const promptIds: string[] = [];
  let toolId = 0;
  spec.turns.forEach((turn, t) => {
    if (turn.switchTo) {
      ({ provider, model } = turn.switchTo);
      push({ type: 'model_change', provider, modelId: model });
    }
    const prompt = `Turn ${t}: ${'p'.repeat(Math.max(0, turn.promptChars - 8))}`;
    promptIds.push(push({ type: 'message', message: { role: 'user', content: prompt, timestamp: 0 } }));
    seen.push({ turn: t, tokens: est(prompt.length) });
    for (const call of turn.calls) {
      const text = 'r'.repeat(call.textChars ?? 40);
      const toolCalls = (call.tools ?? []).map((tool) => ({
        type: 'toolCall',
        id: `toolu_${++toolId}`,
        name: tool.name,
        arguments: tool.path ? { path: tool.path } : { command: 'ls' },
      }));
      const outChars =
        text.length + toolCalls.reduce((a, c) => a + c.name.length + JSON.stringify(c.arguments).length, 0);
      const ctx = context();
      const output = est(outChars);
      push({
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text }, ...toolCalls],
          api: 'anthropic-messages',
          provider,
          model,
          usage: {
            input: 3,
            output,
            cacheRead: 0,
            cacheWrite: ctx - 3,
            totalTokens: ctx + output,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: toolCalls.length ? 'toolUse' : 'stop',
          timestamp: 0,
        },
      });
      seen.push({ turn: t, tokens: output });
      (call.tools ?? []).forEach((tool, i) => {
        const result = 'x'.repeat(tool.resultChars);
        push({
          type: 'message',
          message: {
            role: 'toolResult',
            toolCallId: toolCalls[i]!.id,
            toolName: tool.name,
            content: [{ type: 'text', text: result }],
            isError: false,
            timestamp: 0,
          },
        });
        seen.push({ turn: t, tokens: est(result.length) });
      });
    }
    for (const c of spec.compactions ?? []) {
      if (c.afterTurn !== t) continue;
      const summary = `## Goal\n${'s'.repeat(Math.max(0, c.summaryChars - 8))}`;
      // tokensBefore: pi's estimateContextTokens, the last usage's total (no messages after it).
      const tokensBefore = context();
      push({
        type: 'compaction',
        summary,
        firstKeptEntryId: promptIds[c.firstKeptTurn],
        tokensBefore,
        details: { readFiles: c.readFiles ?? [], modifiedFiles: c.modifiedFiles ?? [] },
      });
      seen = seen.filter((m) => m.turn >= c.firstKeptTurn);
      summaryTokens = est(summary.length + PREFIX_SUFFIX_CHARS);
    }
  });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** The session parsed, named as pi names its files. */
export function parsePiSession(spec: PiSessionSpec): Promise<Session> {
  return parseSession([
    createMemorySource(
      '2026-03-09T12-00-00-000Z_11111111-2222-4333-8444-555555555555.jsonl',
      buildPiSession(spec),
    ),
  ]);
}
