import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findHighEntropySecrets, isHighEntropySecret } from '../../src/engine/redact/entropy-secrets';

// Issue 22, item 2: the entropy rule's false positives on the whole real corpus (Claude Code and
// foreign agents), every string of every record, object keys included. The budget is the one
// docs/sharing-and-privacy.md states; raise it only with the docs.

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');
/**
 * Occurrences the entropy rule masks over the whole corpus (docs: at most 40). It was 26 when set,
 * every one a value after a credential name (7 distinct: 4 real-looking keys, 3 public-by-design
 * keys): an upper bound on its false positives, none a uuid, hash, image or id.
 */
const FALSE_POSITIVE_BUDGET = 40;

describe.skipIf(!existsSync(CORPUS))('entropy rule on the real corpus', () => {
  it(`masks at most ${FALSE_POSITIVE_BUDGET} tokens over ../shared/corpus`, () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.jsonl?$/.test(name)) files.push(path);
      }
    };
    walk(CORPUS);
    let count = 0;
    const visit = (v: unknown): void => {
      if (typeof v === 'string') count += findHighEntropySecrets(v).length;
      else if (Array.isArray(v)) v.forEach(visit);
      else if (v !== null && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          count += findHighEntropySecrets(k).length;
          visit(x);
        }
      }
    };
    for (const f of files) {
      for (const line of readFileSync(f, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          visit(JSON.parse(line));
        } catch {
          count += findHighEntropySecrets(line).length;
        }
      }
    }
    expect(files.length).toBeGreaterThan(50);
    expect(count).toBeLessThanOrEqual(FALSE_POSITIVE_BUDGET);
  }, 120_000);

  it('leaves uuids, git SHAs, sha256, ids and paths alone, and takes a random token', () => {
    for (const s of [
      '3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8',
      'b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'toolu_01HVU3QQNDCRbqz97L2CcCfS',
      'agent_msg_019Htnyhd3FQmkWUEhsU6kEC',
      'file_011CNha8iCJcU1wXNR6q4V8w',
      '/home/user/work/src/engine/redact/find-secrets.ts',
    ]) {
      expect(isHighEntropySecret(s), s).toBe(false);
    }
    expect(isHighEntropySecret('Xq7mWz2LkP9vTb4nRc8sYd3fGh6jKa5e')).toBe(true);
    expect(findHighEntropySecrets('Xq7mWz2LkP9vTb4nRc8sYd3fGh6jKa5e')).toHaveLength(1);
  });
});
