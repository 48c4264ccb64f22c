import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

// Issue 25 item 12: a claude-trace request that re-sends the history with an old message changed
// and other old messages gone (as after a clearing that also removes turns) is an edit of the
// history: the changed message is read again and the dropped ones said, never the whole history
// again as new entries. The fixture is a claude-trace log of Claude Code (14 requests, a summary
// request and its compaction); its 10th request, which re-sends 12 messages (11 and the response) and adds 1, is
// changed as a clearing would change it.

const NAME = 'log-2025-08-04-14-20-00.jsonl';
const LINES = readFileSync(`tests/fixtures/api/claude-code/${NAME}`, 'utf8').trimEnd().split('\n');
const CLEARED = '[Old tool result content cleared]';

type Message = { role: string; content: unknown };
const messagesOf = (line: string): Message[] => JSON.parse(line).request?.body?.messages ?? [];

/** A plain count of the distinct messages the requests and responses of a log carry. */
function countDistinctMessages(lines: string[]): number {
  const seen = new Set<string>();
  for (const line of lines) {
    const record = JSON.parse(line);
    for (const m of messagesOf(line)) seen.add(JSON.stringify([m.role, m.content]));
    const body = record.response?.body;
    if (body?.content) seen.add(JSON.stringify(['assistant', body.content]));
  }
  return seen.size;
}

/** Request 10 (line 10) with messages[2]'s text cleared and messages[3..4] (a turn) dropped. */
function clearAndDrop(): { lines: string[]; line: number } {
  const k = 9;
  const record = JSON.parse(LINES[k]!);
  const messages: Message[] = record.request.body.messages;
  expect(messages.map((m) => m.role[0]).join('')).toBe('uauauauauauau');
  const before = messagesOf(LINES[k - 1]!);
  // Request 10 re-sends request 9's 11 messages: this is a resend, as the clearing finds it.
  expect(JSON.stringify(messages.slice(0, before.length))).toBe(JSON.stringify(before));
  const changed = structuredClone(messages[2]!);
  changed.content = Array.isArray(changed.content)
    ? changed.content.map((b: { type: string }) =>
        b.type === 'tool_result'
          ? { ...b, content: CLEARED }
          : b.type === 'text'
            ? { ...b, text: CLEARED }
            : b,
      )
    : CLEARED;
  expect(JSON.stringify(changed)).not.toBe(JSON.stringify(messages[2]));
  record.request.body.messages = [messages[0], messages[1], changed, ...messages.slice(5)];
  const lines = [...LINES];
  lines[k] = JSON.stringify(record);
  return { lines, line: k + 1 };
}

describe('a claude-trace resend that edits one old message and drops others', () => {
  it('is an edit of the history: entries grow by the changed message and the event, as the distinct messages do', async () => {
    const parse = (lines: string[]) => parseSession([createMemorySource(NAME, `${lines.join('\n')}\n`)]);
    const clean = await parse(LINES);
    const { lines, line } = clearAndDrop();
    const session = await parse(lines);
    // The plain count: one message more (the cleared one); the others were all sent before.
    expect(countDistinctMessages(lines)).toBe(countDistinctMessages(LINES) + 1);
    // The engine: that message and one history-change event, not the 10 re-sent messages again.
    expect(session.entries.length).toBe(clean.entries.length + 2);
    expect(session.apiCalls.length).toBe(clean.apiCalls.length);
    const event = session.entries.find((e) => e.type === 'history-change' && e.line === line);
    expect(event?.compact).toMatchObject({ kind: 'compact', deletedRange: [2, 4] });
    expect(event?.compact?.resendsHistory).toBeUndefined();
    expect(event?.summaryText).toContain('1 message edited, 2 of 12 dropped (held messages 2–4)');
    expect(session.issues).toContainEqual(
      expect.objectContaining({
        line,
        message: expect.stringMatching(
          /re-sends 1 earlier message changed and drops 2 \(messages\[2\]\): an edit of the history/,
        ),
      }),
    );
    // Its compactions are the log's own: the summary request's, not one more.
    expect(session.compactions.length).toBe(clean.compactions.length + 1);
    const real = (c: (typeof clean.compactions)[number]) =>
      c.trigger === 'client'
        ? []
        : [
            {
              line: c.line,
              trigger: c.trigger,
              before: c.apiCallBefore,
              pre: c.preTokens,
              post: c.postTokens,
            },
          ];
    expect(session.compactions.flatMap(real)).toEqual(clean.compactions.flatMap(real));
    expect(session.compactions.flatMap(real)).toHaveLength(1);
  });
});
