import { parseSession } from '../../src/engine/parse/parse-session';
import { type ByteSource, createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';

// Small Claude Code transcripts with exact usage figures, written in the on-disk shape
// (FORMAT.md §2–§6): one line per streamed block, usage on each, tool results as their own lines.

export interface ToolSpec {
  name: string;
  /** Characters of the result (its content is 'x' repeated). */
  resultChars: number;
  path?: string;
  /** Characters of the tool_use input's main field (a Write's content, a TodoWrite's list). */
  inputChars?: number;
  images?: number;
  /** The tool_use input, instead of the one made from the fields above. */
  input?: Record<string, unknown>;
}

export interface CallSpec {
  /** A user prompt sent before this call. */
  prompt?: string;
  /** input + cache creation + cache read of the call. */
  context: number;
  output?: number;
  text?: string;
  tools?: ToolSpec[];
  /** Thinking block first. */
  thinking?: number;
  /** Records written after the call's tool results (a skill's meta body, an attachment). */
  after?: Record<string, unknown>[];
}

export interface BoundarySpec {
  /** The boundary follows this call (after its tool results). */
  afterCall: number;
  trigger: 'auto' | 'manual';
  preTokens: number;
  summaryChars: number;
  /** Re-attached file attachments after the summary. */
  reattached?: string[];
}

export interface MicroSpec {
  afterCall: number;
  /** Indices into the call's tools, as (call, tool) pairs. */
  cleared: [number, number][];
  tokensSaved: number;
}

export interface TranscriptSpec {
  version?: string;
  model?: string;
  calls: CallSpec[];
  boundaries?: BoundarySpec[];
  micro?: MicroSpec[];
  /** Records before the first prompt (SessionStart hook output). */
  preamble?: Record<string, unknown>[];
}

export const FIXTURE_NAME = 'fixture-session.jsonl';

/** JSONL lines of the transcript. */
export function buildTranscript(spec: TranscriptSpec): string[] {
  const lines: string[] = [];
  let uuid = 0;
  let parent: string | null = null;
  let clock = Date.UTC(2026, 0, 1, 9, 0, 0);
  const base = () => {
    clock += 1000;
    return {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: '/work/demo',
      sessionId: 'fixture',
      version: spec.version ?? '2.1.68',
      gitBranch: 'main',
      timestamp: new Date(clock).toISOString(),
    };
  };
  const push = (record: Record<string, unknown>) => {
    const id = `u${++uuid}`;
    lines.push(JSON.stringify({ ...base(), ...record, uuid: id }));
    parent = id;
    return id;
  };
  const toolId = (k: number, t: number) => `toolu_${k}_${t}`;
  for (const record of spec.preamble ?? []) push(record);
  spec.calls.forEach((call, k) => {
    if (call.prompt !== undefined) push({ type: 'user', message: { role: 'user', content: call.prompt } });
    const usage = {
      input_tokens: 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: call.context - 10,
      output_tokens: call.output ?? 100,
    };
    const message = (content: unknown[]) => ({
      id: `msg_${k}`,
      type: 'message',
      role: 'assistant',
      model: spec.model ?? 'claude-opus-4-6',
      content,
      usage,
    });
    if (call.thinking)
      push({
        type: 'assistant',
        requestId: `req_${k}`,
        message: message([{ type: 'thinking', thinking: 't'.repeat(call.thinking), signature: 'sig' }]),
      });
    push({
      type: 'assistant',
      requestId: `req_${k}`,
      message: message([{ type: 'text', text: call.text ?? `Step ${k}.` }]),
    });
    const tools = call.tools ?? [];
    tools.forEach((tool, t) => {
      const input: Record<string, unknown> = {};
      if (tool.path) input.file_path = tool.path;
      if (tool.name === 'Bash') input.command = 'npm test';
      if (tool.name === 'TodoWrite')
        input.todos = [{ content: 'x'.repeat(tool.inputChars ?? 100), status: 'pending' }];
      else if (tool.inputChars) input.content = 'c'.repeat(tool.inputChars);
      push({
        type: 'assistant',
        requestId: `req_${k}`,
        message: message([
          { type: 'tool_use', id: toolId(k, t), name: tool.name, input: tool.input ?? input },
        ]),
      });
    });
    tools.forEach((tool, t) => {
      const content: unknown[] = [{ type: 'text', text: 'x'.repeat(tool.resultChars) }];
      for (let i = 0; i < (tool.images ?? 0); i++)
        content.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } });
      push({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId(k, t), content }] },
      });
    });
    for (const record of call.after ?? []) push(record);
    for (const m of spec.micro ?? []) {
      if (m.afterCall !== k) continue;
      push({
        type: 'system',
        subtype: 'microcompact_boundary',
        content: 'Context microcompacted',
        isMeta: false,
        level: 'info',
        microcompactMetadata: {
          trigger: 'auto',
          preTokens: 0,
          tokensSaved: m.tokensSaved,
          compactedToolIds: m.cleared.map(([c, t]) => toolId(c, t)),
          clearedAttachmentUUIDs: [],
        },
      });
    }
    for (const b of spec.boundaries ?? []) {
      if (b.afterCall !== k) continue;
      const logical = parent;
      parent = null;
      push({
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        level: 'info',
        logicalParentUuid: logical,
        compactMetadata: { trigger: b.trigger, preTokens: b.preTokens },
      });
      push({
        type: 'user',
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
        message: {
          role: 'user',
          content: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n${'s'.repeat(b.summaryChars)}`,
        },
      });
      for (const path of b.reattached ?? []) {
        push({
          type: 'attachment',
          attachment: {
            type: 'file',
            filename: path,
            content: { type: 'text', file: { filePath: path, content: 'f'.repeat(4000) } },
          },
        });
      }
    }
  });
  return lines;
}

export function createFixtureSources(spec: TranscriptSpec): ByteSource[] {
  return [createMemorySource(FIXTURE_NAME, `${buildTranscript(spec).join('\n')}\n`)];
}

export async function parseFixture(
  spec: TranscriptSpec,
): Promise<{ session: Session; sources: ByteSource[] }> {
  const sources = createFixtureSources(spec);
  return { session: await parseSession(sources), sources };
}

/** A steadily growing session: each call adds one Read result of `stepChars` characters. */
export function growingSpec(
  calls: number,
  options: { start?: number; stepTokens?: number; version?: string } = {},
): TranscriptSpec {
  const start = options.start ?? 20_000;
  const step = options.stepTokens ?? 5_000;
  return {
    version: options.version,
    calls: Array.from({ length: calls }, (_, k) => ({
      prompt: k === 0 ? 'Build the thing.' : undefined,
      context: start + k * step,
      output: 100,
      tools: [{ name: 'Read', path: `/work/demo/src/file${k % 7}.ts`, resultChars: (step - 120) * 4 }],
    })),
  };
}
