import { describe, expect, it } from 'vitest';
import { getProjectKey, groupUsage, type UsageSession } from '../../src/engine/stats/usage';

// A project is a folder (engine/stats/usage.ts getProjectKey): a Windows path in either separator
// and any case is one key, shown with an upper-case drive letter; a POSIX path is case-sensitive.
// (The real folder whose logs spell its drive letter both ways: tests/cli/stats-by.test.ts.)

describe('getProjectKey', () => {
  it('one key for a Windows folder however it is spelled', () => {
    const spellings = [
      'C:\\Users\\ana\\app',
      'c:\\Users\\ana\\app',
      'C:/Users/ana/app',
      'c:\\users\\ANA\\app\\',
      'C:\\\\Users\\ana//app',
    ];
    const keys = spellings.map(getProjectKey);
    expect(new Set(keys.map((k) => k.identity))).toEqual(new Set(['c:\\users\\ana\\app']));
    expect(keys.map((k) => k.display)).toEqual([
      'C:\\Users\\ana\\app',
      'C:\\Users\\ana\\app',
      'C:\\Users\\ana\\app',
      'C:\\users\\ANA\\app',
      'C:\\Users\\ana\\app',
    ]);
    // A drive's root keeps its separator; a share keeps its two leading ones.
    expect(getProjectKey('d:/').display).toBe('D:\\');
    expect(getProjectKey('//srv/share/x/').display).toBe('\\\\srv\\share\\x');
    expect(getProjectKey('\\\\SRV\\share\\x').identity).toBe(getProjectKey('//srv/share/x').identity);
  });

  it('a POSIX folder: case kept apart, only a trailing slash dropped', () => {
    expect(getProjectKey('/home/ana/App').identity).not.toBe(getProjectKey('/home/ana/app').identity);
    expect(getProjectKey('/home/ana/app/')).toEqual({ identity: '/home/ana/app', display: '/home/ana/app' });
    expect(getProjectKey('/')).toEqual({ identity: '/', display: '/' });
    expect(getProjectKey('')).toEqual({ identity: '', display: '' });
  });

  it('groupUsage by project: the spellings of one folder are one group, its sessions and calls summed', () => {
    const bucket = {
      slot: 1,
      model: 'claude-sonnet-4-6',
      calls: 2,
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
      costUsd: 1,
      unpricedCalls: 0,
    };
    const sessions: UsageSession[] = [
      { key: 'a', cwd: 'C:\\Users\\ana\\app', buckets: [bucket] },
      { key: 'b', cwd: 'c:\\Users\\ana\\app', buckets: [bucket] },
      { key: 'c', cwd: 'C:/Users/ana/app', buckets: [bucket] },
      { key: 'd', cwd: '/srv/app', buckets: [bucket] },
    ];
    const groups = groupUsage(sessions, 'project', 'UTC');
    expect(groups.map((g) => [g.key, g.label, g.sessions, g.calls])).toEqual([
      ['C:\\Users\\ana\\app', 'app', 3, 6],
      ['/srv/app', 'app', 1, 2],
    ]);
  });
});
