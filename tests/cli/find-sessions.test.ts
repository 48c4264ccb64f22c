import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessionFiles } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';

const PARENT = '7acd37a8-2745-4b58-a8a9-46164b22ad9e';
const OTHER = '2c5941bd-b9de-41d6-9414-221d175776f7';
const line = (sessionId: string) =>
  `${JSON.stringify({ parentUuid: null, isSidechain: true, sessionId, agentId: 'a1', type: 'user' })}\n`;

function writeTree(root: string, files: Record<string, string>): void {
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
}

describe('findSessions', () => {
  const root = mkdtempSync(join(tmpdir(), 'compactlab-find-'));
  const rel = (p: string) => p.slice(root.length + 1);
  writeTree(root, {
    'claude/projects/-p/s1.jsonl': '{}\n',
    'claude/projects/-p/s1/subagents/agent-a1.jsonl': '{}\n',
    'claude/projects/-p/s1/subagents/agent-a1.meta.json': '{}\n',
    'claude/projects/-p/s1/subagents/agent-acompact-1.jsonl': '{}\n',
    'claude/projects/-p/s1/tool-results/big.txt': 'x\n',
    'claude/projects/-p/s2/subagents/agent-b1.jsonl': '{}\n',
    'claude/projects/-p/s2/subagents/agent-b2.jsonl': '{}\n',
    // 2.0.x: subagent logs beside the session file, naming their session only inside.
    [`claude/projects/-q/${PARENT}.jsonl`]: line(PARENT),
    'claude/projects/-q/agent-3430b97e.jsonl': line(PARENT),
    'claude/projects/-q/agent-650d3273.jsonl': line(OTHER),
    'claude/projects/-q/agent-aa1e905b.jsonl': line(OTHER),
    'codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-abc.jsonl': '{}\n',
    'codex/sessions/2026/11/23/rollout-2026-11-23T11-00-00-def.jsonl': '{}\n',
    'cline/tasks/1763000000000/api_conversation_history.json': '[]',
    'cline/tasks/1763000000000/ui_messages.json': '[]',
    'cline/tasks/1763000000000/task_metadata.json': '{}',
    'cline/tasks/1763000000001/api_conversation_history.json': '[]',
  });
  // A home kept in a dotfiles repository: the projects folder is a link, and a link points back up.
  symlinkSync(join(root, 'claude'), join(root, 'linked-claude'));
  symlinkSync(root, join(root, 'claude', 'loop'));

  it('groups as the page does: subagent folders, 2.0.x siblings by their sessionId, Cline task folders, orphans', async () => {
    const groups = await findSessions([join(root, 'claude'), join(root, 'codex'), join(root, 'cline')]);
    expect(groups.map((g) => ({ file: rel(g.file), paths: g.paths.map(rel) }))).toEqual([
      {
        file: 'claude/projects/-p/s1.jsonl',
        paths: [
          'claude/projects/-p/s1.jsonl',
          'claude/projects/-p/s1/subagents/agent-a1.jsonl',
          'claude/projects/-p/s1/subagents/agent-acompact-1.jsonl',
          'claude/projects/-p/s1/subagents/agent-a1.meta.json',
        ],
      },
      {
        // The session file is gone: its subagents still make one session, not two.
        file: 'claude/projects/-p/s2/subagents/agent-b1.jsonl',
        paths: [
          'claude/projects/-p/s2/subagents/agent-b1.jsonl',
          'claude/projects/-p/s2/subagents/agent-b2.jsonl',
        ],
      },
      {
        file: `claude/projects/-q/${PARENT}.jsonl`,
        paths: [`claude/projects/-q/${PARENT}.jsonl`, 'claude/projects/-q/agent-3430b97e.jsonl'],
      },
      {
        // Their session is not in the folder: together, a session of their own.
        file: 'claude/projects/-q/agent-650d3273.jsonl',
        paths: ['claude/projects/-q/agent-650d3273.jsonl', 'claude/projects/-q/agent-aa1e905b.jsonl'],
      },
      {
        file: 'cline/tasks/1763000000000/ui_messages.json',
        paths: [
          'cline/tasks/1763000000000/ui_messages.json',
          'cline/tasks/1763000000000/api_conversation_history.json',
          'cline/tasks/1763000000000/task_metadata.json',
        ],
      },
      {
        file: 'cline/tasks/1763000000001/api_conversation_history.json',
        paths: ['cline/tasks/1763000000001/api_conversation_history.json'],
      },
      {
        file: 'codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-abc.jsonl',
        paths: ['codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-abc.jsonl'],
      },
      {
        file: 'codex/sessions/2026/11/23/rollout-2026-11-23T11-00-00-def.jsonl',
        paths: ['codex/sessions/2026/11/23/rollout-2026-11-23T11-00-00-def.jsonl'],
      },
    ]);
  });

  it('follows symbolic links, walking each real folder once (a link back up does not loop)', async () => {
    const viaLink = await findSessions([join(root, 'linked-claude')]);
    // Through the link; `loop` leads up to the root, whose other folders are listed once through it.
    expect(viaLink.map((g) => g.file.slice(join(root, 'linked-claude').length + 1))).toEqual([
      'loop/cline/tasks/1763000000000/ui_messages.json',
      'loop/cline/tasks/1763000000001/api_conversation_history.json',
      'loop/codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-abc.jsonl',
      'loop/codex/sessions/2026/11/23/rollout-2026-11-23T11-00-00-def.jsonl',
      'projects/-p/s1.jsonl',
      'projects/-p/s2/subagents/agent-b1.jsonl',
      `projects/-q/${PARENT}.jsonl`,
      'projects/-q/agent-650d3273.jsonl',
    ]);
    // The loop link leads back to the root; the whole tree is still listed once.
    const all = await findSessions([root]);
    expect(new Set(all.map((g) => g.file)).size).toBe(all.length);
    expect(all).toHaveLength(8);
  });
});

describe('openSessionFiles (what inspect, replay and the others read for a path)', () => {
  const root = mkdtempSync(join(tmpdir(), 'compactlab-open-'));
  writeTree(root, {
    [`one/${PARENT}.jsonl`]: line(PARENT),
    'one/agent-3430b97e.jsonl': line(PARENT),
    'two/a.jsonl': '{}\n',
    'two/b.jsonl': '{}\n',
    'none/notes.txt': 'x\n',
  });

  it('reads a folder of one session as that session, its subagent logs with it', async () => {
    const sources = await openSessionFiles([join(root, 'one')]);
    expect(sources.map((s) => s.name.slice(root.length + 1))).toEqual([
      `one/${PARENT}.jsonl`,
      'one/agent-3430b97e.jsonl',
    ]);
  });

  it('says which sessions a folder of several holds, and that a folder holds none', async () => {
    await expect(openSessionFiles([join(root, 'two')])).rejects.toThrow(
      /two holds 2 sessions; name one.*compactlab stats[^\n]*\n {2}\S*two\/a\.jsonl\n {2}\S*two\/b\.jsonl$/s,
    );
    await expect(openSessionFiles([join(root, 'none')])).rejects.toThrow(
      /none is a folder without a transcript/,
    );
  });
});
