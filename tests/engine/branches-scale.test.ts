import { describe, expect, it } from 'vitest';
import { computeEntryParents } from '../../src/engine/parse/branches';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

// The uuid tree of a long session is a chain as deep as the session. Breaking cycles by walking
// up from every entry was quadratic: 102,000 entries took over a minute in the page. These
// sessions are big enough that a quadratic walk exceeds the test's timeout.

function line(uuid: string, parentUuid: string | null, type: 'user' | 'assistant', i: number): string {
  const message =
    type === 'user'
      ? { role: 'user', content: `prompt ${i}` }
      : {
          id: `msg_${i}`,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: `answer ${i}` }],
          usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: i },
        };
  return JSON.stringify({
    type,
    uuid,
    parentUuid,
    sessionId: 's',
    timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    message,
  });
}

async function parseLines(lines: string[]) {
  return parseSession([createMemorySource('chain.jsonl', new TextEncoder().encode(`${lines.join('\n')}\n`))]);
}

describe('uuid tree at scale', () => {
  it('a 200,000-entry chain gets each entry its parent, in linear time', async () => {
    const n = 200_000;
    const lines = Array.from({ length: n }, (_, i) =>
      line(`u${i}`, i === 0 ? null : `u${i - 1}`, i % 2 === 0 ? 'user' : 'assistant', i),
    );
    const session = await parseLines(lines);
    const parent = computeEntryParents(session);
    expect(parent[0]).toBe(-1);
    for (const i of [1, 2, 50_000, n - 1]) expect(parent[i]).toBe(i - 1);
  }, 30_000);

  it('a cycle of forward links (untrusted input) is broken at its lowest entry', async () => {
    // u0 ← u1 ← u2, and u0 claims u2 as its parent: u0 → u2 → u1 → u0.
    const lines = [
      line('u0', 'u2', 'user', 0),
      line('u1', 'u0', 'assistant', 1),
      line('u2', 'u1', 'user', 2),
    ];
    const session = await parseLines(lines);
    const parent = computeEntryParents(session);
    expect(Array.from(parent)).toEqual([-1, 0, 1]);
  });
});
