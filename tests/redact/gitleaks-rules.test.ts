import { describe, expect, it } from 'vitest';
import { cpuMs } from '../helpers/cpu-time';
import data from '../../src/engine/redact/rules/gitleaks-rules.json';
import {
  findProviderSecrets,
  getCandidateRules,
  listProviderRules,
} from '../../src/engine/redact/gitleaks-rules';

// The gitleaks rule set (issue 22, item 1): taken as data with its version and licence, every kept
// rule proved to do bounded work per match attempt by a static check (no flake), and the keyword
// prefilter as gitleaks applies it.

/**
 * Whether a JS pattern does bounded work at each start position: every quantifier bounded, and no
 * group repeated a variable number of times holds a quantifier (the shape that backtracks
 * exponentially). Then a scan is linear in the text's length.
 */
function getBacktrackingHazard(source: string): string | undefined {
  const stack: boolean[] = [false];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; source[i] !== ']'; i++) if (source[i] === '\\') i++;
      continue;
    }
    if (c === '(') {
      stack.push(false);
      continue;
    }
    const q = /^(?:[*+?]|\{(\d+)(?:,(\d*))?\})/.exec(source.slice(i + 1));
    if (c === ')') {
      const holds = stack.pop()!;
      if (q) {
        if (q[0] === '*' || q[0] === '+' || q[2] === '') return `unbounded ${q[0]}`;
        const fixed = q[0] === '?' || q[2] === undefined || q[2] === q[1];
        if (holds && !fixed) return `group repeated ${q[0]} holds a quantifier`;
        stack[stack.length - 1] = true;
        i += q[0].length;
      } else if (holds) stack[stack.length - 1] = true;
      continue;
    }
    if (q) {
      if (q[0] === '*' || q[0] === '+' || q[2] === '') return `unbounded ${q[0]} at ${i}`;
      stack[stack.length - 1] = true;
      i += q[0].length;
    }
  }
  return undefined;
}

describe('gitleaks rules', () => {
  it('names the version, commit and licence, and why each dropped rule was dropped', () => {
    expect(data.license).toBe('MIT');
    expect(data.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(data.source.version).toMatch(/^v8\./);
    expect(data.kept).toBe(data.rules.length);
    expect(data.rules.length).toBeGreaterThan(200);
    for (const d of data.dropped) expect(d.reason.length, d.id).toBeGreaterThan(10);
  });

  it('keeps only rules whose every match attempt does bounded work (static check)', () => {
    const hazards = listProviderRules()
      .map((r) => [r.id, getBacktrackingHazard(r.regex)] as const)
      .filter(([, h]) => h !== undefined);
    expect(hazards).toEqual([]);
    expect(getBacktrackingHazard('(a{1,3}){1,9}')).toBeDefined();
    expect(getBacktrackingHazard('a+b')).toBeDefined();
  });

  it('runs a rule only on a text holding one of its keywords, case-insensitively', () => {
    const rules = listProviderRules();
    const gitlab = rules.findIndex((r) => r.id === 'gitlab-pat');
    expect(getCandidateRules('token GLPAT-abc')).toContain(gitlab);
    expect(getCandidateRules('nothing here')).toEqual([]);
  });

  it('finds the providers issue 22 saw go through (GitLab, npm, Hugging Face, Supabase, SendGrid, DigitalOcean)', () => {
    const r = 'Xq7mWz2LkP9vTb4nRc8sYd3fGh6jKa5eUw1iOp0o';
    for (const [id, text] of [
      ['gitlab-pat', `glpat-${r.slice(0, 20)}`],
      ['npm-access-token', `npm_${r.slice(0, 36)}`],
      ['huggingface-access-token', `hf_${r.slice(0, 34).replace(/\d/g, 'q')}`],
      ['sendgrid-api-token', `SG.${r.slice(0, 22)}.${r.slice(0, 39)}x${r.slice(0, 3)}`],
      ['digitalocean-pat', `dop_v1_${'a1b2c3d4e5f6a7b8'.repeat(4)}`],
    ] as const) {
      expect(
        findProviderSecrets(`here: ${text} ok`).map((m) => m.rule),
        id,
      ).toContain(id);
    }
  });

  it('stays fast on long adversarial input holding every keyword', () => {
    const keywords = listProviderRules().flatMap((r) => r.keywords);
    const text = `${keywords.join(' = ')} ${'aA0_-='.repeat(20_000)}`;
    // Generous, in CPU time (helpers/cpu-time.ts): a backtracking rule would take minutes here.
    expect(cpuMs(() => findProviderSecrets(text), 1)).toBeLessThan(5000);
  });
});
