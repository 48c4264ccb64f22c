import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessionFiles } from '../../src/cli/session-files';
import { parseSession } from '../../src/engine/parse/parse-session';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getSessionSetup, STRATEGIES } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { compareVersions } from '../../src/engine/strategies/version-profile';
import { NEWEST_CLAUDE_CODE_VERSION_CHECKED } from '../../src/engine/thresholds';
import { corpusJsonl, corpusOrSkip, foreignFiles, restoredRealLogFiles } from '../helpers/corpus';

// Each agent's knobs as the version that wrote the log, held to the logs' raw records (read here
// without the engine) and to the agents' sources at their release tags:
//   - Codex CLI 0.47.0 logged the model's raw window as model_context_window (272,000, gpt-5's in
//     openai_model_info.rs); 0.57.0 and later log 95% of it (258,400). The replay divided every
//     logged window by 0.95, so the 0.47.0 rollout got a raw window of 286,316, which no model has,
//     and an auto-compact limit of 257,684 instead of 244,800.
//   - Gemini CLI's default compression threshold was 0.7 from v0.1.10 to v0.11.2, 0.2 from v0.11.3,
//     0.5 from v0.17.0 (the tags' chatCompressionService.ts / client.ts); the replay used 0.5 for
//     every chat. The chats state no version: their start date picks the release.
//   - Claude Code logs newer than every version the profiles were read from or checked on (2.1.101)
//     say so in the notes; older ones do not.

const foreign = foreignFiles();
const real = restoredRealLogFiles();
const all = [...foreign, ...real];
if (all.length === 0) corpusOrSkip('version knobs on real logs');

async function setupOf(path: string, strategyId: string) {
  const session = await parseSession(await openSessionFiles([path]));
  const strategy = STRATEGIES.find((s) => s.id === strategyId)!;
  const setup = getSessionSetup(strategy, getSessionInfo(prepareReplay(session)));
  const lines = strategy.thresholds(setup.knobs as never);
  const line = (id: string) => lines.find((l) => l.id === id)?.tokens;
  return { knobs: setup.knobs as Record<string, unknown>, notes: setup.notes, line };
}

/** The raw facts of a Codex rollout: cli_version, the windows its token_count events state. */
function readCodexRollout(path: string): { version?: string; windows: Set<number> } {
  let version: string | undefined;
  const windows = new Set<number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let r: { type?: string; payload?: Record<string, unknown> };
    try {
      r = JSON.parse(line);
    } catch {
      continue;
    }
    if (r.type === 'session_meta') version = r.payload?.cli_version as string | undefined;
    const info = r.payload?.info as { model_context_window?: number } | undefined;
    if (r.type === 'event_msg' && r.payload?.type === 'token_count' && info?.model_context_window)
      windows.add(info.model_context_window);
  }
  return { version, windows };
}

const codexRollouts = all
  .filter((p) => /rollout-.*\.jsonl$/.test(p))
  .filter((p) => readCodexRollout(p).windows.size > 0);

describe('Codex CLI: the logged window read as the version that wrote it', () => {
  if (codexRollouts.length === 0)
    it.skip('no Codex rollout with a token_count (the foreign corpus and .real-logs are absent)', () => {});
  it.each(codexRollouts.map((p) => [basename(p), p]))(
    '%s: the raw window is the model window 272,000 and the limit 90% of it',
    async (_name, path) => {
      const raw = readCodexRollout(path);
      expect(raw.windows.size).toBe(1);
      const logged = [...raw.windows][0]!;
      const { knobs, line } = await setupOf(path, 'codex');
      // The model's raw window, as Codex's openai_model_info.rs gives gpt-5* (every model of these
      // rollouts): what the logged window is divided back to.
      const rawWindow = Math.round(
        ((knobs.contextWindow as number) * 100) / (knobs.effectiveWindowPercent as number),
      );
      expect(knobs.contextWindow).toBe(logged);
      expect(rawWindow).toBe(272_000);
      expect(line('auto-compact')).toBe(244_800);
      if (raw.version === '0.47.0') expect(knobs.effectiveWindowPercent).toBe(100);
    },
  );
});

/** The release a Gemini CLI chat's start date falls in: its default threshold, from the tags' dates. */
function geminiReleaseThreshold(startTime: string): number {
  const day = startTime.slice(0, 10);
  if (day < '2025-07-10') return 0.95;
  if (day < '2025-10-31') return 0.7;
  if (day < '2025-11-20') return 0.2;
  return 0.5;
}

const geminiChats = all.filter((p) => /\/chats\/session-.*\.json$/.test(p));

describe('Gemini CLI: the compression threshold of the release current when the chat started', () => {
  if (geminiChats.length === 0)
    it.skip('no Gemini CLI chat (the foreign corpus and .real-logs are absent)', () => {});
  it.each(geminiChats.map((p) => [basename(p), p]))('%s', async (_name, path) => {
    const chat = JSON.parse(readFileSync(path, 'utf8')) as { startTime: string };
    const expected = geminiReleaseThreshold(chat.startTime);
    const { knobs, line, notes } = await setupOf(path, 'gemini-cli');
    expect(knobs.compressionThreshold).toBe(expected);
    expect(line('compress')).toBe(Math.ceil(expected * (knobs.tokenLimit as number)));
    expect(notes.join(' ')).toContain(`(${expected} × the limit`);
  });
  it('covers the three thresholds the corpora hold (0.7 in 2025-09, 0.2 in 2025-11, 0.5 in 2026-02)', () => {
    if (geminiChats.length === 0) return expect(geminiChats).toEqual([]);
    const found = new Set(
      geminiChats.map((p) =>
        geminiReleaseThreshold((JSON.parse(readFileSync(p, 'utf8')) as { startTime: string }).startTime),
      ),
    );
    expect([...found].sort()).toEqual(
      [0.2, 0.5, 0.7].filter((t) => (t === 0.5 ? real.length > 0 : foreign.length > 0)).sort(),
    );
  });
});

/** The versions a Claude Code JSONL states (its records' `version`), and whether it auto-compacted. */
function readClaudeCodeLog(path: string): { versions: string[]; autoCompacted: boolean } {
  const versions = new Set<string>();
  let autoCompacted = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as {
        version?: string;
        subtype?: string;
        compactMetadata?: { trigger?: string };
      };
      if (typeof r.version === 'string') versions.add(r.version);
      if (r.subtype === 'compact_boundary' && r.compactMetadata?.trigger === 'auto') autoCompacted = true;
    } catch {
      // a cut line
    }
  }
  return { versions: [...versions].sort(compareVersions), autoCompacted };
}

const claudeLogs = [
  ...corpusJsonl(),
  ...real.filter((p) => p.includes('/.claude/projects/') && p.endsWith('.jsonl')),
]
  .map((path) => ({ path, ...readClaudeCodeLog(path) }))
  .filter((l) => l.versions.length > 0);

describe('Claude Code: a version newer than every one checked says so', () => {
  if (claudeLogs.length === 0) it.skip('no Claude Code log (the corpus and .real-logs are absent)', () => {});
  else
    it('the newest version checked is the newest that auto-compacted in the corpora', () => {
      const compacted = claudeLogs.filter((l) => l.autoCompacted).flatMap((l) => l.versions);
      expect(compacted.sort(compareVersions).at(-1)).toBe(NEWEST_CLAUDE_CODE_VERSION_CHECKED);
    });
  const mains = claudeLogs.filter((l) => !l.path.includes('subagents'));
  it.each(mains.map((l) => [basename(l.path), l]))('%s', async (_name, log) => {
    const { notes } = await setupOf(log.path, 'claude-code');
    const newest = log.versions.at(-1)!;
    const said = notes.some((n) => n.includes('is newer than every version'));
    expect(said).toBe(compareVersions(newest, NEWEST_CLAUDE_CODE_VERSION_CHECKED) > 0);
  });
});

// Claude Code 1.0.x by its cli.js (docs/sources.md#cc-npm-constants): up to 1.0.70 auto-compact at
// 92% of (200,000 − 32,000) = 154,560, from 1.0.71 at 200,000 − 32,000 − 13,000 = 155,000. The
// replay put every 1.0.x log at 187,000 (window − 13k, a build no release matches).
describe('Claude Code 1.0.x: the threshold its release computes', () => {
  const oneZero = claudeLogs.filter(
    (l) => l.versions.at(-1)!.startsWith('1.0.') && !l.path.includes('subagents'),
  );
  if (oneZero.length === 0) it.skip('no Claude Code 1.0.x log (the corpus is absent)', () => {});
  else
    it.each(oneZero.map((l) => [`${basename(l.path)} (${l.versions.at(-1)})`, l]))(
      '%s',
      async (_name, log) => {
        const { line } = await setupOf(log.path, 'claude-code');
        const before71 = compareVersions(log.versions.at(-1)!, '1.0.71') < 0;
        expect(line('auto-compact')).toBe(before71 ? 154_560 : 155_000);
      },
    );
});
