// The options behind the files committed to the repository. Tests regenerate from these and
// compare, so the committed files are never edited by hand.

import type { GenerateSessionOptions } from './generate-session';

/**
 * The bundled sample in public/samples/ (`npm run sample`): Claude Code 2.1.19 (the default
 * version, see DEFAULT_CLAUDE_CODE_VERSION), one microcompaction, one auto and one manual
 * compaction, each where the replay model puts it (tests/sample/sample-replay.test.ts). 380 calls
 * keep the main file near 3 MB.
 */
export const SAMPLE_OPTIONS: GenerateSessionOptions = { seed: 20_260_309, apiCalls: 380 };

/**
 * tests/fixtures/tiny.jsonl: a session resumed close to the limit, so that six API calls are
 * enough for one auto compaction (cache cold: the first request creates ~166k tokens of cache).
 * Labelled 2.1.68 (167,000 threshold, no microcompact in the replay model's knobs).
 */
export const TINY_OPTIONS: GenerateSessionOptions = {
  seed: 7,
  version: '2.1.68',
  apiCalls: 6,
  initialContextTokens: 165_200,
  storyStart: 13,
  outputScale: 0.6,
  features: { specials: false, microcompact: false, manualCompact: false },
};
