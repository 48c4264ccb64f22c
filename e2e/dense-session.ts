// A synthetic Claude Code session with compactions in tight bursts, so that at any chart width
// some markers would overlap: user → assistant (tool call) → tool result per turn, and after the
// listed turns a compact_boundary with its summary message.

export interface DenseSession {
  text: string;
  /** Line (= entry) index of each main API call's assistant record, by call position. */
  callLines: number[];
  compactions: number;
}

export function makeDenseSession(turns: number, compactAfter: number[]): DenseSession {
  const sessionId = 'dddddddd-0000-4000-8000-000000000000';
  const start = Date.parse('2026-02-01T00:00:00.000Z');
  const base = {
    sessionId,
    cwd: '/tmp/dense',
    version: '2.1.68',
    gitBranch: 'main',
    isSidechain: false,
    userType: 'external',
  };
  const lines: string[] = [];
  const callLines: number[] = [];
  const after = new Set(compactAfter);
  let parent: string | null = null;
  let context = 30_000;
  let compactions = 0;
  for (let t = 0; t < turns; t++) {
    const ts = (k: number) => new Date(start + (t * 4 + k) * 1000).toISOString();
    const u = `u-${t}`;
    const a = `a-${t}`;
    const r = `r-${t}`;
    context += 2_500;
    lines.push(
      JSON.stringify({
        ...base,
        type: 'user',
        uuid: u,
        parentUuid: parent,
        timestamp: ts(0),
        message: { role: 'user', content: `Turn ${t}: do the next step` },
      }),
    );
    callLines.push(lines.length);
    lines.push(
      JSON.stringify({
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
            cache_creation_input_tokens: 500,
            cache_read_input_tokens: context,
            output_tokens: 40,
          },
        },
      }),
    );
    lines.push(
      JSON.stringify({
        ...base,
        type: 'user',
        uuid: r,
        parentUuid: a,
        timestamp: ts(2),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: `${t}` }],
        },
      }),
    );
    parent = r;
    if (after.has(t)) {
      const b = `b-${t}`;
      const s = `s-${t}`;
      const manual = compactions % 3 === 2;
      lines.push(
        JSON.stringify({
          ...base,
          type: 'system',
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          isMeta: false,
          level: 'info',
          uuid: b,
          parentUuid: null,
          logicalParentUuid: parent,
          timestamp: ts(3),
          compactMetadata: { trigger: manual ? 'manual' : 'auto', preTokens: context },
        }),
      );
      lines.push(
        JSON.stringify({
          ...base,
          type: 'user',
          uuid: s,
          parentUuid: b,
          isCompactSummary: true,
          isVisibleInTranscriptOnly: true,
          timestamp: ts(3),
          message: {
            role: 'user',
            content: `This session is being continued from a previous conversation. Summary ${compactions}.`,
          },
        }),
      );
      parent = s;
      context = 30_000;
      compactions++;
    }
  }
  return { text: `${lines.join('\n')}\n`, callLines, compactions };
}
