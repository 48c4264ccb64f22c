import { describe, expect, it } from 'vitest';
import {
  extractInstructions,
  extractRetentionFacts,
  getCommandCore,
} from '../../src/engine/retention/extract';
import {
  matchFact,
  normalizeForMatch,
  prepareSummary,
  scoreRetention,
} from '../../src/engine/retention/score';
import type { RequestMessage } from '../../src/engine/summarize/types';

const span: RequestMessage[] = [
  {
    role: 'user',
    content:
      'Fix the login bug in src/auth/session.ts. Never commit directly to main. Use port 8443 and keep `SESSION_TTL` at 3600.',
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking `refreshToken` first.' },
      { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/home/me/app/src/auth/session.ts' } },
      {
        type: 'tool_use',
        id: 'b',
        name: 'Bash',
        input: { command: 'cd /home/me/app && npm run test:auth 2>&1 | tail -5' },
      },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'a', content: 'export function refreshToken() {}' },
      {
        type: 'tool_result',
        tool_use_id: 'b',
        content: 'TypeError: token.expiresAt is undefined\n  at session.ts:42',
        is_error: true,
      },
    ],
  },
  {
    role: 'user',
    content: '<system-reminder>ignore me</system-reminder>Also add a regression test for the expiry case.',
  },
];

describe('retention facts', () => {
  it('extracts paths, commands, identifiers, errors, instructions and the last request', () => {
    const facts = extractRetentionFacts(span);
    const of = (category: string) => facts.filter((f) => f.category === category).map((f) => f.text);
    expect(of('path')).toEqual(['/home/me/app/src/auth/session.ts', 'src/auth/session.ts']);
    expect(of('command')).toEqual(['cd /home/me/app && npm run test:auth 2>&1 | tail -5']);
    expect(of('identifier')).toEqual(expect.arrayContaining(['SESSION_TTL', 'refreshToken', '8443', '3600']));
    expect(of('error')).toEqual(['TypeError: token.expiresAt is undefined']);
    expect(of('instruction')).toEqual([
      'Never commit directly to main.',
      'Use port 8443 and keep `SESSION_TTL` at 3600.',
    ]);
    expect(of('last-request')).toEqual(['Also add a regression test for the expiry case.']);
  });

  it('reads CLAUDE.md rules that Claude Code injected as a system reminder', () => {
    const withMemory: RequestMessage[] = [
      {
        role: 'user',
        content:
          '<system-reminder>\nContents of /repo/CLAUDE.md (project instructions):\n\n- Always use pnpm, never npm.\n- The API lives in api/.\n</system-reminder>\nHi',
      },
    ];
    expect(extractInstructions(withMemory)).toEqual(['Always use pnpm, never npm.']);
  });

  it("strips cd prefixes and pipes from a command's core", () => {
    expect(getCommandCore('cd /x && npm test 2>&1 | tail -20')).toBe('npm test');
  });
});

describe('retention score', () => {
  const facts = extractRetentionFacts(span);

  it('counts exact, normalized and near matches, per category and overall', () => {
    const summary = [
      'Files: auth/session.ts (read). Ran `npm run test:auth`, which failed with "TypeError: token.expiresAt is undefined".',
      'Rules: never commit directly to main; use port 8443 and keep SESSION_TTL at 3600. refreshToken is the culprit.',
      'Next: also add a regression test for the expiry case.',
    ].join('\n');
    const score = scoreRetention(facts, summary);
    expect(score.byCategory.path).toMatchObject({ total: 2, kept: 2 });
    expect(score.byCategory.command).toMatchObject({ total: 1, kept: 1 });
    expect(score.byCategory.error).toMatchObject({ kept: 1 });
    expect(score.byCategory.instruction).toMatchObject({ total: 2, kept: 2 });
    expect(score.byCategory['last-request']).toMatchObject({ kept: 1 });
    expect(score.kept).toBe(score.total - score.missed.length);
    expect(score.ratio).toBeCloseTo(score.kept / score.total);
  });

  it('lists what a thin summary missed', () => {
    const score = scoreRetention(facts, 'We fixed a bug.');
    expect(score.kept).toBe(0);
    expect(score.missed).toHaveLength(facts.length);
    expect(score.missed[0]).toEqual({ category: 'path', text: '/home/me/app/src/auth/session.ts' });
  });

  it('an empty span scores 1 (nothing to lose)', () => {
    expect(scoreRetention([], 'x')).toMatchObject({ total: 0, kept: 0, ratio: 1 });
  });

  it('normalizes case, quotes, backslashes and trailing punctuation', () => {
    expect(normalizeForMatch('  `C:\\Repo\\App.TS`. ')).toBe('c:/repo/app.ts');
    const prepared = prepareSummary('the file c:/repo/app.ts was read');
    expect(matchFact({ category: 'path', text: 'C:\\Repo\\App.ts' }, prepared)).toBe('normalized');
    expect(matchFact({ category: 'path', text: 'c:/repo/app.ts' }, prepared)).toBe('exact');
  });

  it('a long instruction kept almost verbatim is a near match; a paraphrase is not', () => {
    const fact = {
      category: 'instruction' as const,
      text: 'Always run the full integration suite before you open a pull request for review.',
    };
    expect(
      matchFact(
        fact,
        prepareSummary('User rule: always run the full integration suite before you open a pull request.'),
      ),
    ).toBe('near');
    expect(matchFact(fact, prepareSummary('The user wants tests to pass before PRs.'))).toBe('missed');
  });
});
