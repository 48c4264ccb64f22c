import { describe, expect, it } from 'vitest';
import { getGroupStamp, groupSessionFiles } from '../../src/engine/library/group-files';

const file = (path: string, sizeBytes = 10, modifiedMs = 1) => ({ path, sizeBytes, modifiedMs });

describe('groupSessionFiles', () => {
  it('puts a session folder’s files with its transcript and keeps other transcripts apart', () => {
    const groups = groupSessionFiles([
      file('p/-home-a/s1/subagents/agent-a1.jsonl'),
      file('p/-home-a/s1.jsonl'),
      file('p/-home-a/s1/subagents/agent-a1.meta.json'),
      file('p/-home-a/s2.jsonl'),
      file('p/-home-a/agent-legacy.jsonl'),
      file('sessions/2026/05/01/rollout-x.jsonl'),
      file('p/notes.txt'),
    ]);
    expect(groups.map((g) => [g.key, g.files.map((f) => f.path)])).toEqual([
      ['p/-home-a/agent-legacy.jsonl', ['p/-home-a/agent-legacy.jsonl']],
      [
        'p/-home-a/s1.jsonl',
        [
          'p/-home-a/s1.jsonl',
          'p/-home-a/s1/subagents/agent-a1.jsonl',
          'p/-home-a/s1/subagents/agent-a1.meta.json',
        ],
      ],
      ['p/-home-a/s2.jsonl', ['p/-home-a/s2.jsonl']],
      ['sessions/2026/05/01/rollout-x.jsonl', ['sessions/2026/05/01/rollout-x.jsonl']],
    ]);
  });

  it('stamps change with any file’s size or date', () => {
    const [a] = groupSessionFiles([file('s.jsonl'), file('s/subagents/agent-1.jsonl')]);
    const [b] = groupSessionFiles([file('s.jsonl'), file('s/subagents/agent-1.jsonl', 10, 2)]);
    expect(getGroupStamp(a!)).not.toBe(getGroupStamp(b!));
    expect(getGroupStamp(a!)).toBe(
      getGroupStamp(groupSessionFiles([file('s.jsonl'), file('s/subagents/agent-1.jsonl')])[0]!),
    );
  });
});
