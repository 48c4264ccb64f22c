import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pointers from './real-logs.json';
import { CORPUS, corpusOrSkip, FOREIGN } from '../helpers/corpus';

// tests/corpus/real-logs.json points at every real log the corpus tests read (repository, commit,
// path, size, SHA-256), so a fresh clone can fetch them again; the logs themselves stay out of the
// repository (issue 18 item 1). This test holds the list to ../shared's manifests and copies.

const present = corpusOrSkip('real-log pointer test');
const SHARED = join(CORPUS, '..');

interface ManifestEntry {
  repo: string;
  commit: string;
  path: string;
  local: string;
}

const manifests = (): { entry: ManifestEntry; shared: string }[] => [
  ...(JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')).files as ManifestEntry[]).map(
    (entry) => ({
      entry,
      shared: `corpus/${entry.local}`,
    }),
  ),
  ...(JSON.parse(readFileSync(join(FOREIGN, 'manifest.json'), 'utf8')) as ManifestEntry[]).map((entry) => ({
    entry,
    shared: `corpus/foreign/${entry.local}`,
  })),
];

describe.skipIf(!present)('corpus: the real-log pointers', () => {
  it('lists every log of ../shared once, with its repository, commit and path', () => {
    const listed = pointers.logs.map(({ repo, commit, path, shared }) => ({ repo, commit, path, shared }));
    const expected = manifests().map(({ entry: { repo, commit, path }, shared }) => ({
      repo,
      commit,
      path,
      shared,
    }));
    expect(listed).toEqual(expected);
  });

  it('holds the size and SHA-256 of each copy', () => {
    for (const log of pointers.logs) {
      const file = join(SHARED, log.shared);
      expect(existsSync(file), log.shared).toBe(true);
      const bytes = readFileSync(file);
      expect(
        { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') },
        log.shared,
      ).toEqual({
        bytes: log.bytes,
        sha256: log.sha256,
      });
    }
  });
});
