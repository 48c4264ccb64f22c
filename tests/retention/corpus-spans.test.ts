import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession, readEntryText } from '../../src/engine/parse/parse-session';
import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import { getPresetSettings } from '../helpers/preset-settings';
import { extractMessageText } from '../../src/engine/query/compaction-detail';
import { scoreRetention } from '../../src/engine/retention/score';
import { FACT_CATEGORIES } from '../../src/engine/retention/types';
import { renderBuiltinSummary } from '../../src/engine/summarize/builtin';
import { cleanupSummary, getRecordedSummaryBody } from '../../src/engine/summarize/cleanup';
import { prepareSummary } from '../../src/engine/summarize/prepare';
import { getMainCompactions } from '../../src/engine/summarize/span';
import { corpusFiles, corpusOrSkip } from '../helpers/corpus';

// Retention on real spans: every real compaction in ../shared/corpus (other people's logs, read
// here and never copied) is re-summarized by the built-in summarizer and scored next to the
// summary Claude Code really wrote.

const present = corpusOrSkip('retention corpus tests');

const mainTranscripts = () =>
  corpusFiles(
    (f) =>
      f.endsWith('.jsonl') &&
      f.startsWith('claude__projects__') &&
      !f.includes('__subagents__') &&
      !f.includes('agent-'),
  );

/** Spans checked: enough to cover versions and shapes, few enough to stay quick. */
const MAX_SPANS = 12;

describe.runIf(present)('retention on corpus spans', () => {
  it('scores the built-in and the recorded summary of real compactions', async () => {
    const preset = requirePreset('claude-code-full');
    let spans = 0;
    for (const file of mainTranscripts()) {
      if (spans >= MAX_SPANS) break;
      const sources = [createNodeFileSource(file)];
      const session = await parseSession(sources);
      for (const { compactionIndex, compaction } of getMainCompactions(session)) {
        if (spans >= MAX_SPANS || compaction.summaryEntryIndex === undefined) continue;
        const prepared = await prepareSummary(
          session,
          sources,
          { kind: 'compaction', compactionIndex },
          getPresetSettings('claude-code-full'),
        );
        if (prepared.request.messages.length === 0) continue;
        spans++;
        const builtin = scoreRetention(
          prepared.facts,
          cleanupSummary(renderBuiltinSummary(prepared.request, preset), preset.output),
        );
        const recordedText =
          extractMessageText(await readEntryText(sources, session, compaction.summaryEntryIndex)) ?? '';
        const recorded = scoreRetention(prepared.facts, getRecordedSummaryBody(recordedText));
        // Scores are well-formed: per-category totals add up, ratios are in [0, 1].
        for (const score of [builtin, recorded]) {
          expect(FACT_CATEGORIES.reduce((n, c) => n + score.byCategory[c].total, 0)).toBe(score.total);
          expect(score.ratio).toBeGreaterThanOrEqual(0);
          expect(score.ratio).toBeLessThanOrEqual(1);
          expect(score.missed.length).toBe(score.total - score.kept);
        }
        // The built-in keeps what it structurally can: every path, command and error, and the last request.
        expect(builtin.byCategory.path.ratio, file).toBe(1);
        expect(builtin.byCategory.command.ratio, file).toBe(1);
        expect(builtin.byCategory.error.ratio, file).toBe(1);
        expect(builtin.byCategory['last-request'].ratio, file).toBe(1);
        expect(recordedText.length).toBeGreaterThan(0);
      }
    }
    expect(spans).toBeGreaterThan(3);
  });
});
