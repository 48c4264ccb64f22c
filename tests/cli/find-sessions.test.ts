import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSessions } from '../../src/cli/stats/find-sessions';

describe('findSessions', () => {
  it('groups Claude Code subagent files with their session, keeps Codex rollouts and orphans apart', () => {
    const root = mkdtempSync(join(tmpdir(), 'compactlab-find-'));
    const files = [
      'claude/projects/-p/s1.jsonl',
      'claude/projects/-p/s1/subagents/agent-a1.jsonl',
      'claude/projects/-p/s1/subagents/agent-a1.meta.json',
      'claude/projects/-p/s1/subagents/agent-acompact-1.jsonl',
      'claude/projects/-p/s1/tool-results/big.txt',
      'claude/projects/-p/s2/subagents/agent-b1.jsonl',
      'claude/projects/-p/s2/subagents/agent-b2.jsonl',
      'codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-abc.jsonl',
      'codex/sessions/2026/11/23/rollout-2026-11-23T11-00-00-def.jsonl',
    ];
    for (const f of files) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), '{}\n');
    }
    const groups = findSessions([join(root, 'claude'), join(root, 'codex')]);
    const rel = (p: string) => p.slice(root.length + 1);
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
        file: 'codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-abc.jsonl',
        paths: ['codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-abc.jsonl'],
      },
      {
        file: 'codex/sessions/2026/11/23/rollout-2026-11-23T11-00-00-def.jsonl',
        paths: ['codex/sessions/2026/11/23/rollout-2026-11-23T11-00-00-def.jsonl'],
      },
    ]);
  });
});
