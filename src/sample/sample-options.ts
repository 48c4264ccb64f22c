// The options behind the files committed to the repository. Tests regenerate from these and
// compare, so the committed files are never edited by hand.

import type { GenerateSessionOptions } from './generate-session';

/** The bundled sample in public/samples/ (`npm run sample`). */
export const SAMPLE_OPTIONS: GenerateSessionOptions = { seed: 20_260_309 };

/**
 * tests/fixtures/tiny.jsonl: a session resumed close to the limit, so that six API calls are
 * enough for one auto compaction (cache cold: the first request creates ~166k tokens of cache).
 */
export const TINY_OPTIONS: GenerateSessionOptions = {
  seed: 7,
  apiCalls: 6,
  initialContextTokens: 165_200,
  storyStart: 14,
  outputScale: 0.6,
  features: { specials: false, microcompact: false, manualCompact: false },
};
