import { describe, expect, it } from 'vitest';
import { followBranch, isOnFollowedBranch } from '../../src/engine/parse/branches';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { Session } from '../../src/engine/types';
import { cpuMsAsync } from '../helpers/cpu-time';

// Claude Code's uuid tree built from generated files a fuzzer would write: one record forked 40k
// ways (every record a child of the first), and a 200k-entry chain written backwards with one
// fork. A branch's preview scanned the file from the branch's start to its first prompt, to the
// end for an answer's branch, and the queue of branches shifted (quadratic in the branches:
// `compactlab inspect` took 4.9 s of CPU at 40k, 1.5 s at 20k); the followed path walked an
// out-of-order chain recursively ("Maximum call stack size exceeded": `compactlab replay`
// exited 1 at 20k entries).

const SESSION = '00fb8673-8b42-4835-a84f-3e32248c1e89';
const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const time = (i: number): string => new Date(Date.UTC(2026, 2, 9, 8) + i * 1000).toISOString();

function user(i: number, parent: string | null, text = `prompt ${i}`): Record<string, unknown> {
  return {
    parentUuid: parent,
    isSidechain: false,
    type: 'user',
    sessionId: SESSION,
    version: '2.1.68',
    message: { role: 'user', content: text },
    uuid: uuid(i),
    timestamp: time(i),
  };
}

function assistant(i: number, parent: string): Record<string, unknown> {
  return {
    parentUuid: parent,
    isSidechain: false,
    type: 'assistant',
    sessionId: SESSION,
    version: '2.1.68',
    requestId: `req_${i}`,
    message: {
      model: 'claude-opus-4-6',
      id: `msg_${i}`,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: `answer ${i}` }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 10,
        cache_read_input_tokens: 1000 + i,
        output_tokens: 5,
      },
    },
    uuid: uuid(i),
    timestamp: time(i),
  };
}

/** `n` records, each after the first a child of the first: prompts and answers, a branch each. */
function fannedOut(n: number): string {
  const records = [user(1, null)];
  for (let i = 2; i <= n; i++) records.push(i % 2 ? user(i, uuid(1)) : assistant(i, uuid(1)));
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

/** A chain of `n` written last-first after its first two records, then a second branch off record 2. */
function reversedChainWithFork(n: number): string {
  const chain: Record<string, unknown>[] = [];
  for (let i = 1; i <= n; i++)
    chain.push(i % 2 ? user(i, i === 1 ? null : uuid(i - 1)) : assistant(i, uuid(i - 1)));
  const other = [user(n + 1, uuid(2), 'the other way'), assistant(n + 2, uuid(n + 1))];
  other[0]!.timestamp = time(n + 10);
  other[1]!.timestamp = time(n + 11);
  const records = [...chain.slice(0, 2), ...chain.slice(2).reverse(), ...other];
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

const parse = (text: string): Promise<Session> =>
  parseSession([createMemorySource(`${SESSION}.jsonl`, text)]);

describe('the uuid tree of generated broken sessions', () => {
  it('a prompt forked 20k ways: every fork listed, parsed in time linear in the forks', async () => {
    const session = await parse(fannedOut(20_001));
    expect(session.branches?.branches.length).toBe(20_000);
    const fork = session.branches!.forks[0]!;
    expect(fork.childEntryIndices.length).toBe(20_000);
    // An answer's branch holds no prompt; a prompt's branch is named by it.
    expect(fork.childPreviews.slice(0, 2)).toEqual(['', 'prompt 3']);
    expect(fork.childPreviews.at(-1)).toBe('prompt 20001');
    // The branch that went on is the one written last (the main line).
    expect(session.branches!.branches[fork.continuedBranchId]!.isMainLine).toBe(true);

    const small = fannedOut(10_001);
    const large = fannedOut(40_001);
    const smallMs = await cpuMsAsync(() => parse(small));
    const largeMs = await cpuMsAsync(() => parse(large));
    // 4× the branches: about 4× the time when linear (2.4× measured); the quadratic scan took 10.6×.
    expect(largeMs / smallMs).toBeLessThan(6);
  });

  // 50k: the recursive walk overflowed the stack at 20k; 200k took 10 s of the unit stage.
  it('a 50k-entry chain written backwards with a fork: the followed path and the replay need no deep stack', async () => {
    const n = 50_000;
    const session = await parse(reversedChainWithFork(n));
    expect(session.entries.length).toBe(n + 2);
    expect(session.branches?.branches.length).toBe(2);
    // The main line is the branch written last (records n+1, n+2); the long chain is the other.
    expect(isOnFollowedBranch(session, session.entries.length - 1)).toBe(true);
    expect(isOnFollowedBranch(session, 2)).toBe(false);
    const other = followBranch(session, 1);
    expect(isOnFollowedBranch(other, 2)).toBe(true);
    expect(isOnFollowedBranch(other, session.entries.length - 1)).toBe(false);
    // The replay follows the main line: its two calls, the long chain's calls on another branch.
    const replay = computeReplay(prepareReplay(session), 'claude-code', {});
    expect(replay.callIndex.length).toBe(2);
  });
});
