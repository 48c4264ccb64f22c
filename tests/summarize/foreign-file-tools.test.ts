import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import { renderBuiltinSummary } from '../../src/engine/summarize/builtin';
import { computeSpanDigest } from '../../src/engine/summarize/digest';
import { prepareSummary } from '../../src/engine/summarize/prepare';
import { corpusName, corpusOrSkip, foreignFiles, REAL_LOGS, restoredRealLogFiles } from '../helpers/corpus';
import { getPresetSettings } from '../helpers/preset-settings';
import {
  countCodexFailedOutputs,
  type FileTouches,
  readClineHistoryFileTouches,
  readCodexFileTouches,
  readGeminiFileTouches,
  readPiFileTouches,
} from '../truth/file-touches';

// The built-in summary of another agent's session names the files its calls read and changed, as
// a plain reader of the raw records counts them (tests/truth/file-touches.ts). Before, every real
// Codex rollout's summary said "No files were read or changed" (0 of its files: 14 of 14 read by
// `sed -n` in Xu-Wentao/dotfile's, 22 of 22 read and patched in blubber/dotfiles'): Codex reads
// with its shell tools and changes files with `apply_patch`, and neither was read; a real Cline
// history named 16 of its 43 files (its `write_to_file` calls name theirs `absolutePath`), a pi
// session 10 of 11 (a `cat` through `bash`).

type Reader = (raw: string) => FileTouches;

function readerOf(path: string, raw: string): { agent: string; preset: string; read: Reader } | undefined {
  const name = basename(path);
  if (/^rollout-.*\.jsonl$/.test(name))
    return { agent: 'codex', preset: 'codex', read: readCodexFileTouches };
  if (/\/\.gemini\/.*\/chats\/session-.*\.json$/.test(path))
    return { agent: 'gemini', preset: 'gemini-cli', read: readGeminiFileTouches };
  if (name === 'api_conversation_history.json')
    return { agent: 'cline', preset: 'cline-summarize-task', read: readClineHistoryFileTouches };
  // pi's first line: its session header (`{"type":"session","version":…}`).
  if (name.endsWith('.jsonl') && /^\{"type":"session"/.test(raw))
    return { agent: 'pi', preset: 'pi', read: readPiFileTouches };
  return undefined;
}

const files = corpusOrSkip('files of the real foreign logs in the built-in summary')
  ? [...foreignFiles(), ...restoredRealLogFiles()]
  : [];
if (restoredRealLogFiles().length === 0)
  console.warn(`foreign-file-tools: ${REAL_LOGS} is not restored; the foreign corpus alone is checked`);

const cases = files.flatMap((path) => {
  const raw = readFileSync(path, 'utf8');
  const reader = readerOf(path, raw);
  return reader ? [{ path, raw, ...reader }] : [];
});

/** Cases whose whole session the summary covers, with files read and changed (a guard: the loop checks something). */
const checked: Record<string, { files: number; changed: number }> = {};

/** A rollout's lines after its last `compacted` record. */
function linesAfterLastCompacted(raw: string): string {
  const lines = raw.split('\n');
  let last = -1;
  lines.forEach((l, i) => {
    if (l.includes('"type":"compacted"')) last = i;
  });
  return lines.slice(last + 1).join('\n');
}

const nameOf = (path: string): string =>
  path.startsWith(REAL_LOGS) ? `.real-logs/${path.slice(REAL_LOGS.length + 1)}` : corpusName(path);

describe.skipIf(cases.length === 0)('the files of real foreign logs in the built-in summary', () => {
  for (const c of cases) {
    it(`${c.agent}: ${nameOf(c.path)}`, async (ctx) => {
      const source = () => [createMemorySource(basename(c.path), Buffer.from(c.raw))];
      const session = await parseSession(source());
      const truth = c.read(c.raw);
      const touched = new Set([...truth.read, ...truth.changed]);
      // Codex's early rollouts wrote no token counts, OpenClaw's failed requests no usage.
      if (session.apiCalls.length === 0) return ctx.skip('skipped: no API call, no point to summarize at');
      const prepared = await prepareSummary(
        session,
        source(),
        { kind: 'api-call', apiCallIndex: session.apiCalls.length - 1 },
        getPresetSettings(c.preset),
      );
      const digest = computeSpanDigest(prepared.request.messages);
      const read = new Set(digest.files.filter((f) => f.reads).map((f) => f.path));
      const changed = new Set(
        digest.files.filter((f) => f.edits || f.writes || f.deletes).map((f) => f.path),
      );
      if (session.compactions.length > 0) {
        // The span starts after the last compaction: what it names, the raw calls touched.
        for (const f of digest.files) expect(touched).toContain(f.path);
        // A Codex span holds files exactly when the lines after the last `compacted` touched some
        // (a real 0.64 rollout's last /compact came after its last file tool).
        const after = c.agent === 'codex' ? c.read(linesAfterLastCompacted(c.raw)) : truth;
        expect(digest.files.length > 0).toBe(after.read.size + after.changed.size > 0);
        return;
      }
      expect(read).toEqual(truth.read);
      expect(changed).toEqual(truth.changed);
      const preset = requirePreset(c.preset);
      const summary = renderBuiltinSummary(prepared.request, {
        sections: preset.sections,
        output: preset.output,
      });
      expect(summary.includes('No files were read or changed')).toBe(touched.size === 0);
      for (const f of digest.files.slice(-80)) expect(summary).toContain(f.path);
      if (c.agent === 'codex') {
        // A failed command says so only in its output's exit code: "No tool call failed" before,
        // over the 79 failures of the corpora's rollouts.
        const failed = countCodexFailedOutputs(c.raw);
        expect(digest.errors).toHaveLength(failed);
        expect(summary.includes('No tool call failed.')).toBe(failed === 0);
        checked.codexFailed = { files: (checked.codexFailed?.files ?? 0) + failed, changed: 0 };
      }
      const seen = checked[c.agent] ?? { files: 0, changed: 0 };
      checked[c.agent] = { files: seen.files + touched.size, changed: seen.changed + truth.changed.size };
    });
  }
  it('the loop above checked files read and changed for each agent the corpus holds', () => {
    // The foreign corpus alone: 3 Codex rollouts (26 files read, 14 changed), 4 Gemini CLI chats,
    // 3 pi sessions; .real-logs/ adds more of each and the Cline histories.
    expect(checked.codex?.files).toBeGreaterThan(0);
    expect(checked.codex?.changed).toBeGreaterThan(0);
    expect(checked.codexFailed?.files).toBeGreaterThan(0);
    expect(checked.gemini?.files).toBeGreaterThan(0);
    expect(checked.pi?.files).toBeGreaterThan(0);
  });
});
