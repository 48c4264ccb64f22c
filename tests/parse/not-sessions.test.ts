import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../sample/generate-session';
import { groupSessionFiles } from '../../src/engine/library/group-files';
import { scanSession } from '../../src/engine/library/scan-session';
import { isFolderFileName } from '../../src/engine/parse/detect';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { runCli } from '../helpers/run-cli';

// The agents' prompt histories (~/.claude/history.jsonl, ~/.codex/history.jsonl) sit beside their
// sessions: opening ~/.claude or ~/.codex listed each as a broken session ("not a transcript: its
// lines are JSON, but none is a … record"). They are left out of a folder's walk, and opened alone
// say what they are. Records as the agents write them (Claude Code's display/pastedContents/
// timestamp/project/sessionId; Codex's message_history.rs HistoryEntry).

const CLAUDE_HISTORY = [
  { display: 'fix the failing test', pastedContents: {}, timestamp: 1772230832330, project: '/home/ada/p' },
  {
    display: '/compact',
    pastedContents: {},
    timestamp: 1772230999000,
    project: '/home/ada/p',
    sessionId: '0f0f0f0f-aaaa-4bbb-8ccc-000000000123',
  },
];
const CODEX_HISTORY = [
  { session_id: '019d6d75-b03d-7f83-a2c7-c3478007d5e0', ts: 1775700000, text: 'fix the tests' },
  { conversation_id: '019d6d75-b03d-7f83-a2c7-c3478007d5e0', ts: 1775700100, text: 'now commit' },
];
// Codex's thread names (codex-rs/core/src/rollout/session_index.rs `SessionIndexEntry`).
const CODEX_THREAD_NAMES = [
  {
    id: '019d6d75-b03d-7f83-a2c7-c3478007d5e0',
    thread_name: 'Fix the parser',
    updated_at: '2026-04-08T22:30:00Z',
  },
  {
    id: '019d6d67-1952-7e83-93ef-94497e3c15b6',
    thread_name: 'Write docs',
    updated_at: '2026-04-08T22:40:00Z',
  },
];
const lines = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

describe("the agents' prompt histories", () => {
  it('are left out of a folder walk; sessions of the same name under their folders are not', () => {
    expect(isFolderFileName('.claude/history.jsonl')).toBe(false);
    expect(isFolderFileName('/home/ada/.codex/history.jsonl')).toBe(false);
    expect(isFolderFileName('.claude/projects/-home-ada-p/history.jsonl')).toBe(true);
    expect(isFolderFileName('.codex/sessions/2026/04/08/history.jsonl')).toBe(true);
    // The folder opened is the agent's own (its name is not in the paths of a walk from inside).
    expect(isFolderFileName('history.jsonl')).toBe(false);
    expect(isFolderFileName('/home/ada/.codex/session_index.jsonl')).toBe(false);
    expect(isFolderFileName('session_index.jsonl')).toBe(false);
    const groups = groupSessionFiles(
      [
        '.claude/history.jsonl',
        '.claude/projects/-home-ada-p/0f0f0f0f.jsonl',
        '.codex/history.jsonl',
        '.codex/session_index.jsonl',
      ].map((path) => ({ path, sizeBytes: 1, modifiedMs: 0 })),
    );
    expect(groups.map((g) => g.key)).toEqual(['.claude/projects/-home-ada-p/0f0f0f0f.jsonl']);
  });

  it.each([
    ['Claude Code', CLAUDE_HISTORY, "Claude Code's prompt history"],
    ['Codex CLI', CODEX_HISTORY, "Codex CLI's prompt history"],
    ['Codex CLI', CODEX_THREAD_NAMES, "Codex CLI's thread names"],
  ] as const)('%s: opened alone, it says what it is', async (_agent, records, what) => {
    // Under any name: the records tell.
    const session = await parseSession([createMemorySource('prompts.jsonl', lines([...records]))]);
    expect(session.entries).toEqual([]);
    const [issue] = session.issues;
    expect(issue?.code).toBe('not-a-transcript');
    expect(issue?.message).toContain(`prompts.jsonl is not a transcript: it is ${what}`);
  });

  // A config folder kept elsewhere (CLAUDE_CONFIG_DIR=~/.config/claude, CODEX_HOME) has its
  // history.jsonl at the folder's root under no `.claude`: the walk takes it, and it was listed as
  // a session of agent "?" with 1 issue (`stats`: a row of zeros and issueErrors 1).
  it('kept outside the agent folder, the list and `stats` leave it out, saying what it is', async () => {
    const row = await scanSession([createMemorySource('claude-cfg/history.jsonl', lines(CLAUDE_HISTORY))]);
    expect(row.notSession).toContain("Claude Code's prompt history");
    const session = await scanSession([
      createMemorySource('s.jsonl', generateSession({ seed: 3, apiCalls: 5 }).files[0]!.text),
    ]);
    expect(session.notSession).toBeUndefined();
    // Other JSON is no agent's file: still listed as what it is, a broken session.
    expect(
      (await scanSession([createMemorySource('x.jsonl', lines([{ a: 1 }]))])).notSession,
    ).toBeUndefined();

    const dir = mkdtempSync(join(tmpdir(), 'compactlab-config-dir-'));
    mkdirSync(join(dir, 'projects', '-home-ada-p'), { recursive: true });
    writeFileSync(join(dir, 'history.jsonl'), lines(CLAUDE_HISTORY));
    writeFileSync(
      join(dir, 'projects', '-home-ada-p', 's.jsonl'),
      generateSession({ seed: 3, apiCalls: 5 }).files[0]!.text,
    );
    const stats = await runCli(['stats', dir]);
    expect(stats.code).toBe(0);
    const rows = stats.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string });
    expect(rows.map((r) => r.file)).toEqual([join(dir, 'projects', '-home-ada-p', 's.jsonl')]);
    expect(stats.err).toContain(
      `${join(dir, 'history.jsonl')} left out: not a session: it is Claude Code's prompt history`,
    );
    expect(stats.err).not.toContain('could not be read');
    // Named alone, nothing is left: no session found, exit 1.
    const alone = await runCli(['stats', join(dir, 'history.jsonl')]);
    expect(alone.code).toBe(1);
    expect(alone.err).toContain('no session file found');
  });

  it('a file of other JSON still says none of its lines is a record of the known agents', async () => {
    const session = await parseSession([createMemorySource('x.jsonl', lines([{ a: 1 }, { b: 2 }]))]);
    expect(session.issues[0]?.message).toMatch(/its lines are JSON, but none is a .* record/);
  });
});

// A chat Gemini CLI saved under a tag (real ones in committed ~/.gemini folders:
// KuantumQuest/MyDotFiles-HyDE, Sm1tee/dotfiles): one JSON array of `{role, parts}`. It read as
// "checkpoint-InskapeNotes.json is not a transcript: it is a JSON array of 61 items, not one
// record per line".
describe("Gemini CLI's saved chats (checkpoint-<tag>.json)", () => {
  const checkpoint = [
    {
      role: 'user',
      parts: [{ text: 'This is the Gemini CLI. We are setting up the context for our chat.' }],
    },
    { role: 'model', parts: [{ text: 'Got it. Thanks for the context!' }] },
    { role: 'model', parts: [{ functionCall: { name: 'glob', args: { pattern: '**/*.conf' } } }] },
    {
      role: 'user',
      parts: [{ functionResponse: { id: 'glob-1', name: 'glob', response: { output: 'a.conf' } } }],
    },
  ];

  it('say what they are, and are left out of a folder walk', async () => {
    const session = await parseSession([
      createMemorySource('checkpoint-InskapeNotes.json', JSON.stringify(checkpoint, null, 2)),
    ]);
    const issue = session.issues.find((i) => i.code === 'not-a-transcript');
    expect(issue?.message).toBe(
      'checkpoint-InskapeNotes.json is not a transcript: it is a chat Gemini CLI saved under a tag (checkpoint-<tag>.json: the history as sent to the model, without times or usage); the sessions are the chats/session-*.json(l) files beside it',
    );
    expect(isFolderFileName('.gemini/tmp/b899de0d/checkpoint-InskapeNotes.json')).toBe(false);
    expect(isFolderFileName('.gemini/tmp/b899de0d/chats/session-2025-09-26T08-49-b0d439af.json')).toBe(true);
    // Any other JSON array keeps the plain words.
    const other = await parseSession([
      createMemorySource('list.json', JSON.stringify([{ a: 1 }, { b: 2 }, { c: 3 }], null, 2)),
    ]);
    expect(other.issues.find((i) => i.code === 'not-a-transcript')?.message).toContain(
      'a JSON array of 3 items, not one record per line',
    );
  });
});
