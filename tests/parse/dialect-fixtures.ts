import type { DialectId } from '../../src/engine/types';
import { CODEX_ROLLOUT } from '../fixtures/codex-rollout';
import { buildOpenCodeFixtures } from '../fixtures/make-opencode-fixtures';

// Each registered dialect's fixtures and the golden dump each one has (tests/golden/parse/<name>.txt):
// inspect-golden.test.ts parses them, dialect-structure.test.ts requires a row for every id.

export interface Fixture {
  /** Golden file name under `golden/parse/`. */
  name: string;
  /** Repository paths, or an in-memory file. */
  files: (string | { name: string; text: string })[];
  /**
   * Set when the renamed files cannot give the same dump, with the reason: the dialect (or a file's
   * role in the set) is recognisable by name only.
   */
  nameOnly?: string;
}

const OPENCODE = buildOpenCodeFixtures();

export const FIXTURES: Record<DialectId, Fixture[]> = {
  'claude-code': [
    { name: 'tiny', files: ['tests/fixtures/tiny.jsonl'] },
    { name: 'broken', files: ['tests/fixtures/broken.jsonl'] },
    { name: 'xss', files: ['tests/fixtures/xss.jsonl'] },
  ],
  'codex-cli': [
    {
      name: 'codex-rollout',
      files: [{ name: 'rollout-2026-05-01T09-00-00-sess-1.jsonl', text: `${CODEX_ROLLOUT}\n` }],
    },
  ],
  cline: [{ name: 'cline', files: ['tests/fixtures/cline-api_conversation_history.json'] }],
  'cline-ui': [{ name: 'cline-ui', files: ['tests/fixtures/cline-task/ui_messages.json'] }],
  'cline-task-metadata': [
    {
      name: 'cline-task',
      files: [
        'tests/fixtures/cline-task/api_conversation_history.json',
        'tests/fixtures/cline-task/task_metadata.json',
        'tests/fixtures/cline-task/ui_messages.json',
      ],
      nameOnly:
        "a task folder's roles (the UI log the main file, the API history and the metadata its content) come from the names Cline gives them",
    },
  ],
  'gemini-cli-logs': [{ name: 'gemini-logs', files: ['tests/fixtures/gemini-logs/logs.json'] }],
  'gemini-cli-json': [
    { name: 'gemini-json', files: ['tests/fixtures/agents/session-2026-03-09T10-00-1a2b3c4d.json'] },
  ],
  'gemini-cli': [
    { name: 'gemini-jsonl', files: ['tests/fixtures/agents/session-2026-03-09T11-00-5e6f7a8b.jsonl'] },
    { name: 'gemini-broken', files: ['tests/fixtures/agents/session-2026-03-09T13-00-9c0d1e2f.jsonl'] },
  ],
  pi: [
    {
      name: 'pi',
      files: ['tests/fixtures/agents/2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl'],
    },
    {
      name: 'pi-broken',
      files: ['tests/fixtures/agents/2026-03-09T14-00-00-000Z_0e9d8c7b-1a2b-4c3d-8e4f-5a6b7c8d9e0f.jsonl'],
    },
  ],
  'anthropic-messages': [
    { name: 'anthropic-trace', files: ['tests/fixtures/api/log-2026-03-09-10-00-00.jsonl'] },
    { name: 'anthropic-request', files: ['tests/fixtures/api/request.json'] },
    { name: 'anthropic-broken', files: ['tests/fixtures/api/broken.anthropic.jsonl'] },
    {
      name: 'anthropic-claude-code-trace',
      files: ['tests/fixtures/api/claude-code/log-2025-08-04-14-20-00.jsonl'],
    },
  ],
  'anthropic-messages-json': [
    { name: 'anthropic-list', files: ['tests/fixtures/api/session.anthropic.json'] },
  ],
  // One file per record, in the order OpenCode wrote them (the renamed pass reads them in this
  // order; under their names, by id).
  opencode: [
    { name: 'opencode', files: OPENCODE.session.map(([path]) => `tests/fixtures/opencode/${path}`) },
    {
      name: 'opencode-broken',
      files: OPENCODE.broken.map(([path]) => `tests/fixtures/opencode/${path}`),
      nameOnly: "a record file cut off mid-write is known as OpenCode's by its name only",
    },
  ],
  // Derived from a real stream (tests/fixtures/claude-sdk-stream/derive.py): two runs, a compaction,
  // a subagent's records inline.
  'claude-sdk-stream': [
    { name: 'claude-sdk-stream', files: ['tests/fixtures/claude-sdk-stream/og-system.jsonl'] },
  ],
};
