import fs from 'node:fs';

// A synthetic Claude Code session of any size for load/cancel/scroll tests: a repeated user →
// assistant (tool call) → tool result cycle with unique uuids and growing context.

function* records(turns: number, padChars: number): Generator<string> {
  const sessionId = 'bbbbbbbb-0000-4000-8000-000000000000';
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const pad = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(padChars / 27)).slice(0, padChars);
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    const base = {
      sessionId,
      cwd: '/tmp/big',
      version: '2.1.50',
      gitBranch: 'main',
      isSidechain: false,
      userType: 'external',
    };
    const ts = (k: number) => new Date(start + (t * 3 + k) * 1000).toISOString();
    const u = `u-${t}`;
    const a = `a-${t}`;
    const r = `r-${t}`;
    const context = 20_000 + ((t * 137) % 150_000);
    yield JSON.stringify({
      ...base,
      type: 'user',
      uuid: u,
      parentUuid: parent,
      timestamp: ts(0),
      message: { role: 'user', content: `Turn ${t}: ${pad}` },
    });
    yield JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: a,
      parentUuid: u,
      timestamp: ts(1),
      requestId: `req_${t}`,
      message: {
        id: `msg_${t}`,
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [{ type: 'tool_use', id: `toolu_${t}`, name: 'Bash', input: { command: `echo ${t}` } }],
        usage: {
          input_tokens: 5,
          cache_creation_input_tokens: 100,
          cache_read_input_tokens: context,
          output_tokens: 40,
        },
      },
    });
    yield JSON.stringify({
      ...base,
      type: 'user',
      uuid: r,
      parentUuid: a,
      timestamp: ts(2),
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: `${t}\n${pad}` }],
      },
    });
    parent = r;
  }
}

/** Writes a session of `turns` × 3 lines to `file`; returns its size in bytes. */
export function writeBigSession(file: string, turns: number, padChars: number): number {
  const fd = fs.openSync(file, 'w');
  let buffer: string[] = [];
  for (const line of records(turns, padChars)) {
    buffer.push(line);
    if (buffer.length >= 5_000) {
      fs.writeSync(fd, `${buffer.join('\n')}\n`);
      buffer = [];
    }
  }
  if (buffer.length > 0) fs.writeSync(fd, `${buffer.join('\n')}\n`);
  fs.closeSync(fd);
  return fs.statSync(file).size;
}
