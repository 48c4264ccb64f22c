import { createRng } from '../../sample/prng';
import { type JsonObject, TranscriptWriter } from '../../sample/transcript-writer';

// A generated Claude Code session with four compactions whose summaries drop planted facts at
// known steps: the planted path survives the 1st and 2nd summaries and is gone after the 3rd; the
// planted command is gone after the 2nd. Written in memory by the tests, and to a file for e2e.

export const PLANTED_PATH = '/home/mira/code/tally/src/ledger/planted_fact.ts';
export const PLANTED_COMMAND = 'npm run test:ledger -- --planted';
/** Step (0-based) whose summary first misses each planted fact. */
export const PLANTED_PATH_LOST_AT = 2;
export const PLANTED_COMMAND_LOST_AT = 1;

interface Span {
  prompt: string;
  tools: { name: string; input: JsonObject; result: string }[];
  /** The summary that replaces everything so far. */
  summary: string;
}

const SPANS: Span[] = [
  {
    prompt: `Fix the rounding bug in ${PLANTED_PATH}.`,
    tools: [
      { name: 'Read', input: { file_path: PLANTED_PATH }, result: 'export function round(x) { return x; }' },
      { name: 'Bash', input: { command: PLANTED_COMMAND }, result: '3 passed' },
    ],
    summary: `1. Primary Request: fix rounding in ${PLANTED_PATH}; ran \`${PLANTED_COMMAND}\` (3 passed).`,
  },
  {
    prompt: 'Now update the guide in docs/guide/ROUNDING.md.',
    tools: [
      {
        name: 'Read',
        input: { file_path: '/home/mira/code/tally/docs/guide/ROUNDING.md' },
        result: '# Rounding',
      },
    ],
    summary: `1. Primary Request: rounding fixed in ${PLANTED_PATH}; guide docs/guide/ROUNDING.md updated.`,
  },
  {
    prompt: 'Add a regression test in tests/ledger/round.test.ts.',
    tools: [
      {
        name: 'Read',
        input: { file_path: '/home/mira/code/tally/tests/ledger/round.test.ts' },
        result: 'test()',
      },
    ],
    summary: '1. Primary Request: guide docs/guide/ROUNDING.md done; tests/ledger/round.test.ts added.',
  },
  {
    prompt: 'Bump the version in package/meta/version.json.',
    tools: [
      { name: 'Read', input: { file_path: '/home/mira/code/tally/package/meta/version.json' }, result: '{}' },
    ],
    summary: '1. Primary Request: version bumped in package/meta/version.json.',
  },
];

/** The session as JSONL text. */
export function makeErosionChain(): string {
  const w = new TranscriptWriter({
    rng: createRng(77),
    sessionId: '9a3c1e5b-7d2f-4b6a-8c0e-1f2a3b4c5d6e',
    cwd: '/home/mira/code/tally',
    version: '2.1.68',
    gitBranch: 'main',
    slug: 'eroding-planted-facts',
    startMs: Date.UTC(2026, 2, 9, 10, 0, 0, 0),
  });
  let context = 20_000;
  let toolId = 0;
  const respond = (blocks: JsonObject[], stop: string): string[] => {
    context += 3_000;
    return w.response(
      'claude-opus-4-6',
      { input: 3, cacheCreation: 900, cacheRead: context - 903, output: 40 * blocks.length },
      blocks.map((block) => ({ block, outputTokens: 40, delayMs: 900 })),
      stop,
    ).uuids;
  };
  for (const span of SPANS) {
    w.tick(5_000);
    w.user(span.prompt);
    for (const tool of span.tools) {
      const id = `toolu_01Erosion${String(++toolId).padStart(8, '0')}`;
      const [uuid] = respond([{ type: 'tool_use', id, name: tool.name, input: tool.input }], 'tool_use');
      w.tick(300);
      w.toolResult({
        toolUseId: id,
        content: tool.result,
        isError: false,
        toolUseResult: { stdout: tool.result, stderr: '', interrupted: false, isImage: false },
        sourceUuid: uuid as string,
      });
    }
    const [last] = respond([{ type: 'text', text: 'Done.' }], 'end_turn');
    w.tick(10_000);
    const boundary = w.system(
      'compact_boundary',
      { content: 'Conversation compacted', isMeta: false },
      {
        parentUuid: null,
        logicalParentUuid: last,
        tail: { level: 'info', compactMetadata: { trigger: 'manual', preTokens: context } },
      },
    );
    w.user(
      `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n${span.summary}`,
      { parentUuid: boundary, before: { isVisibleInTranscriptOnly: true, isCompactSummary: true } },
    );
    context = 8_000;
  }
  w.user('Thanks, that is all.');
  respond([{ type: 'text', text: 'You are welcome.' }], 'end_turn');
  return `${w.drain().join('\n')}\n`;
}
