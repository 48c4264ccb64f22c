import { createMemorySource } from '../../src/engine/parse/source';
import { parseSession } from '../../src/engine/parse/parse-session';

// A small hand-written Claude Code transcript: a request with rules, a file read, a failing
// command and its fix, a todo list, a real compaction with its summary, then more work.

type Json = Record<string, unknown>;
let clock = Date.UTC(2026, 0, 2, 10, 0, 0);
let previous: string | null = null;
let counter = 0;

function envelope(type: string, extra: Json): Json {
  counter++;
  clock += 1_000;
  const uuid = `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
  const record = {
    parentUuid: previous,
    isSidechain: false,
    userType: 'external',
    cwd: '/repo',
    sessionId: 'fixture-session',
    version: '2.1.68',
    gitBranch: 'main',
    type,
    uuid,
    timestamp: new Date(clock).toISOString(),
    ...extra,
  };
  previous = uuid;
  return record;
}

const user = (content: unknown, extra: Json = {}) =>
  envelope('user', { message: { role: 'user', content }, ...extra });

function assistant(id: string, content: Json[], contextTokens: number): Json {
  return envelope('assistant', {
    requestId: `req_${id}`,
    message: {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content,
      stop_reason: 'tool_use',
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: contextTokens - 10,
        output_tokens: 50,
      },
    },
  });
}

const toolUse = (id: string, name: string, input: Json) => ({ type: 'tool_use', id, name, input });
const toolResult = (id: string, content: string, isError = false) => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {}),
});

export const FIRST_REQUEST =
  'Please make the build pass. Always run npm test before you say it works. Never edit package.json.';
export const LAST_REQUEST = 'Now add a --verbose flag to src/cli.ts and document it in README.md.';
export const TEST_ERROR = "Error: Cannot find module './util' from src/app.ts";

/** The fixture's JSONL text. */
export function createFixtureText(): string {
  clock = Date.UTC(2026, 0, 2, 10, 0, 0);
  previous = null;
  counter = 0;
  const records: Json[] = [
    user(FIRST_REQUEST),
    assistant(
      'a1',
      [
        { type: 'text', text: 'I will read `src/app.ts` first.' },
        toolUse('t1', 'Read', { file_path: '/repo/src/app.ts' }),
      ],
      12_000,
    ),
    user([toolResult('t1', "import { helper } from './util';\nexport const main = () => helper();")]),
    assistant(
      'a2',
      [
        toolUse('t2', 'Bash', {
          command: 'cd /repo && npm test 2>&1 | tail -20',
          description: 'Run the tests',
        }),
      ],
      13_000,
    ),
    user([toolResult('t2', `${TEST_ERROR}\n    at resolve (node:internal)`, true)]),
    assistant(
      'a3',
      [
        { type: 'text', text: 'The test fails because `util.ts` does not exist. The fix is to create it.' },
        toolUse('t3', 'Write', {
          file_path: '/repo/src/util.ts',
          content: 'export const helper = () => 42;\n',
        }),
      ],
      14_000,
    ),
    user([toolResult('t3', 'File created successfully at: /repo/src/util.ts')]),
    assistant(
      'a4',
      [
        toolUse('t4', 'TodoWrite', {
          todos: [
            { content: 'Create src/util.ts', status: 'completed', activeForm: 'Creating util' },
            { content: 'Run npm test again', status: 'in_progress', activeForm: 'Running tests' },
            { content: 'Add the --verbose flag', status: 'pending', activeForm: 'Adding flag' },
          ],
        }),
      ],
      15_000,
    ),
    user([toolResult('t4', 'Todos have been modified successfully.')]),
    user(LAST_REQUEST),
    assistant(
      'a5',
      [
        { type: 'text', text: 'Adding the flag to `parseArgs` in src/cli.ts.' },
        toolUse('t5', 'Edit', { file_path: '/repo/src/cli.ts', old_string: 'a', new_string: 'b' }),
      ],
      16_000,
    ),
    user([toolResult('t5', 'The file /repo/src/cli.ts has been updated.')]),
    envelope('system', {
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      level: 'info',
      compactMetadata: { trigger: 'auto', preTokens: 16_500 },
    }),
    user(
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent: make the build pass; add --verbose to src/cli.ts.\n\nPlease continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on.',
      { isCompactSummary: true, isVisibleInTranscriptOnly: true },
    ),
    assistant('a6', [toolUse('t6', 'Read', { file_path: '/repo/README.md' })], 4_000),
    user([toolResult('t6', '# Project\n')]),
    assistant('a7', [{ type: 'text', text: 'Documented the flag.' }], 4_500),
  ];
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

export async function loadFixture() {
  const sources = [createMemorySource('fixture-session.jsonl', createFixtureText())];
  const session = await parseSession(sources);
  return { session, sources };
}
