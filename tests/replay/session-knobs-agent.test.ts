import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { formatReplayDump } from '../../src/engine/replay/dump';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getClaudeCodeSessionKnobs } from '../../src/engine/strategies/claude-code/session-knobs';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { CORPUS } from '../helpers/corpus';

// Issue 18 item 8: `replay --strategy all` on a Codex log read its Codex version as a Claude Code
// version ("Threshold profile legacy for Claude Code 0.77.0"). SessionInfo names the log's agent,
// and Claude Code's knobs read a version only when the log is Claude Code's.

const CODEX_LOG = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-29T22-19-12-019d3cf7-965c-7fb0-8eca-afeca7fe7b00.jsonl',
);

describe.skipIf(!existsSync(CODEX_LOG))(
  'Claude Code knobs on another agent’s log (real Codex rollout)',
  () => {
    it('ignores the Codex version and says so', async () => {
      const info = getSessionInfo(prepareReplay(await parseSession([createNodeFileSource(CODEX_LOG)])));
      expect(info).toMatchObject({ agent: 'Codex CLI', format: 'codex-cli', versions: ['0.117.0'] });
      const { knobs, notes } = getClaudeCodeSessionKnobs(info);
      expect(knobs.profile).toBe(getClaudeCodeSessionKnobs({ ...info, versions: [] }).knobs.profile);
      expect(notes).toContain(
        "The log is Codex CLI's: its version 0.117.0 is not a Claude Code version, so no Claude Code version is assumed.",
      );
      expect(notes.join('\n')).not.toMatch(/Claude Code 0\.117/);
    });

    // The walk of session 15: the same replay said "2.0.x: the trigger counts the last usage alone
    // (preTokens equal it), the continuation message is T91" under the v2.1.68 profile, while its
    // event counted 35,612 tokens of pending messages on top of the usage (2.1.x's count).
    it('replays it under the newest rules throughout, as its profile says', async () => {
      const info = getSessionInfo(prepareReplay(await parseSession([createNodeFileSource(CODEX_LOG)])));
      const { knobs, notes } = getClaudeCodeSessionKnobs(info);
      expect(knobs.profile).toBe('v2.1.68');
      expect(knobs.countPendingMessages).toBe(true);
      expect(knobs.continuationFormat).toBe('v2.1.68');
      expect(notes.join('\n')).not.toMatch(/2\.0\.x|last usage alone|T91/);
      // As every other strategy says of a log not its agent's (the CLI printed "0/1 reproduced").
      expect(notes).toContain(
        'The log is not a Claude Code session, so its compactions are not expected to match.',
      );
    });

    it('still reads a Claude Code version', () => {
      const info = {
        versions: ['0.2.77'],
        models: [],
        isSubagent: false,
        autoCompactions: 0,
        microcompactions: 0,
        continuedPeakTokens: 0,
        agent: 'Claude Code',
      };
      expect(getClaudeCodeSessionKnobs(info).notes).toContain(
        'Threshold profile <1.0.71 (legacy) for Claude Code 0.2.77.',
      );
    });
  },
);

// The walk of session 15: `replay --pct 50.5` on a real 2.1.101 log printed "autocompactPctOverride
// 51" over a threshold of 50.5% (90,900 = 180,000 × 0.505): the dump's knob line rounded it.
const CC_LOG = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
);

describe.skipIf(!existsSync(CC_LOG))(
  'a fractional knob in the replay dump (real Claude Code 2.1.101 log)',
  () => {
    it('is printed as set, the threshold it gives beside it', async () => {
      const prepared = prepareReplay(await parseSession([createNodeFileSource(CC_LOG)]));
      const { knobs } = getClaudeCodeSessionKnobs(getSessionInfo(prepared));
      const result = computeReplay(prepared, 'claude-code', { ...knobs, autocompactPctOverride: 50.5 });
      const dump = formatReplayDump(prepared, result);
      expect(dump).toMatch(/· autocompactPctOverride 50\.5 ·/);
      expect(dump).toContain('thresholds auto-compact 90,900 ·');
    });
  },
);
