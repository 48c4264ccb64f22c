import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { REAL_LOGS } from '../helpers/corpus';

// Gemini CLI writes a tool call the person cancelled after its "Request cancelled." notice, in a
// `gemini` message of its own: empty content, no thoughts, no tokens, the cancelled calls
// (chatRecordingService.ts `recordToolCalls`, gemini-cli v0.39.1:517-560). The response that asked
// for them is the message before the notice, with its tokens. Each such holder was counted as an
// API call of context 0: 30 in the real chats (fabien-lessirard/dotfiles, `.json`, 2026-02;
// AnthonyontheHub/TP-Tutor, `.jsonl`, 2026-04). The reference is a plain count of the raw
// records: a call is a `gemini` message that carries `tokens`.

interface RawMessage {
  id?: string;
  type?: string;
  tokens?: unknown;
  toolCalls?: { status?: string }[];
}

/** The chat's messages as the file last wrote them (a `.jsonl` line replaces the one of its id). */
function rawMessages(text: string): RawMessage[] {
  try {
    return (JSON.parse(text) as { messages: RawMessage[] }).messages;
  } catch {
    const byId = new Map<string, RawMessage>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const record = JSON.parse(line) as RawMessage;
      if (typeof record.id === 'string' && typeof record.type === 'string') byId.set(record.id, record);
    }
    return [...byId.values()];
  }
}

const FOLDERS = [
  'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/chats',
  'AnthonyontheHub__TP-Tutor/.gemini/tmp/anthonyguera/chats',
  'AnthonyontheHub__TP-Tutor/.gemini/tmp/tp-tutor/chats',
].map((folder) => join(REAL_LOGS, folder));
const present = FOLDERS.every((folder) => existsSync(folder));
if (!present)
  console.warn(
    `the Gemini cancelled-tools test over real chats is skipped: ${FOLDERS.join(', ')} not restored`,
  );
const chats = present
  ? FOLDERS.flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => name.startsWith('session-'))
        .map((name) => join(folder, name)),
    )
  : [];

describe.skipIf(!present)(
  'Gemini CLI: the holders of cancelled tool calls are no API calls (real chats)',
  () => {
    it('finds the 30 holders of the 19 chats, each after "Request cancelled."', () => {
      let holders = 0;
      for (const path of chats) {
        const messages = rawMessages(readFileSync(path, 'utf8'));
        messages.forEach((m, i) => {
          if (m.type !== 'gemini' || m.tokens !== undefined) return;
          holders++;
          expect(m.toolCalls?.every((c) => c.status === 'cancelled')).toBe(true);
          expect(messages[i - 1]?.type).toBe('info');
        });
      }
      expect([chats.length, holders]).toEqual([19, 30]);
    });

    it.each(chats.map((path) => [path.slice(REAL_LOGS.length + 1), path]))(
      '%s: calls are the messages with tokens',
      async (_name, path) => {
        const messages = rawMessages(readFileSync(path, 'utf8'));
        const withTokens = messages.filter((m) => m.type === 'gemini' && m.tokens !== undefined);
        const session = await parseSession([createNodeFileSource(path)]);
        expect(session.apiCalls.map((c) => c.messageId)).toEqual(withTokens.map((m) => m.id));
        // The cancelled calls stay in the transcript, each with its result.
        const cancelled = messages.flatMap((m) => (m.tokens === undefined ? (m.toolCalls ?? []) : []));
        const uses = session.entries.flatMap((e) => e.blocks.filter((b) => b.kind === 'tool-use'));
        expect(uses.length).toBeGreaterThanOrEqual(cancelled.length);
      },
    );
  },
);

describe('Gemini CLI: a holder of cancelled tool calls (written from the recorder’s source)', () => {
  const at = (s: number) => `2026-04-24T23:1${s}:00.000Z`;
  const lines = [
    { sessionId: 's1', projectHash: 'a'.repeat(64), startTime: at(0), lastUpdated: at(0), kind: 'main' },
    { id: 'u1', timestamp: at(1), type: 'user', content: [{ text: 'run gemini' }] },
    {
      id: 'g1',
      timestamp: at(2),
      type: 'gemini',
      content: 'I will run it.',
      model: 'gemini-3-flash-preview',
      tokens: { input: 6717, output: 35, cached: 5575, thoughts: 113, tool: 0, total: 6865 },
    },
    { id: 'i1', timestamp: at(3), type: 'info', content: 'Request cancelled.' },
    {
      id: 'g2',
      timestamp: at(4),
      type: 'gemini',
      content: '',
      toolCalls: [
        {
          id: 'run_shell_command_1_0',
          name: 'run_shell_command',
          args: { command: 'gemini' },
          status: 'cancelled',
          result: [{ functionResponse: { id: 'run_shell_command_1_0', response: { error: 'cancelled' } } }],
        },
      ],
    },
    { id: 'u2', timestamp: at(5), type: 'user', content: [{ text: 'go on' }] },
    {
      id: 'g3',
      timestamp: at(6),
      type: 'gemini',
      content: 'Done.',
      model: 'gemini-3-flash-preview',
      tokens: { input: 7271, output: 48, cached: 5690, thoughts: 122, tool: 0, total: 7441 },
    },
    // A response whose usage never came is still a call (text of its own).
    { id: 'g4', timestamp: at(7), type: 'gemini', content: 'Cut off', model: 'gemini-3-flash-preview' },
  ];
  const text = lines.map((l) => JSON.stringify(l)).join('\n');

  it('is in the transcript with its call and result, and is no call', async () => {
    const session = await parseSession([createMemorySource('session-2026-04-24T23-16-c8b2cbd9.jsonl', text)]);
    expect(session.apiCalls.map((c) => c.messageId)).toEqual(['g1', 'g3', 'g4']);
    const holder = session.entries.find((e) => e.messageId === 'g2');
    expect(holder?.blocks.map((b) => b.kind)).toEqual(['tool-use', 'tool-result']);
    expect(holder?.apiCallIndex).toBeUndefined();
  });
});
