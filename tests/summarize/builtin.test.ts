import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { PROMPT_PRESETS, requirePreset } from '../../src/engine/strategies/prompt-presets';
import { scoreRetention } from '../../src/engine/retention/score';
import {
  BUILTIN_NOTICE,
  createBuiltinSummarizer,
  renderBuiltinSummary,
} from '../../src/engine/summarize/builtin';
import { cleanupSummary } from '../../src/engine/summarize/cleanup';
import { prepareSummary } from '../../src/engine/summarize/prepare';
import { corpusFilesOf, corpusOrSkip } from '../helpers/corpus';
import { getPresetSettings } from '../helpers/preset-settings';
import { FIRST_REQUEST, LAST_REQUEST, loadFixture, TEST_ERROR } from './fixture';

async function prepared(presetId = 'claude-code-full', prompt?: string) {
  const { session, sources } = await loadFixture();
  const preset = requirePreset(presetId);
  const real = session.compactions.findIndex((c) => c.kind === 'compact');
  return prepareSummary(
    session,
    sources,
    { kind: 'compaction', compactionIndex: real },
    {
      presetId,
      prompt: prompt ?? preset.prompt,
      customInstructions: '',
      systemPrompt: preset.systemPrompt,
      model: 'builtin',
      maxOutputTokens: preset.maxOutputTokens,
    },
  );
}

describe('built-in summarizer', () => {
  it("fills Claude Code's nine sections from the span's structure", async () => {
    const { request } = await prepared();
    const preset = requirePreset('claude-code-full');
    const text = renderBuiltinSummary(request, preset);
    expect(text.startsWith('<summary>')).toBe(true);
    expect(text).toContain(BUILTIN_NOTICE);
    for (const heading of [
      '1. Primary Request and Intent:',
      '4. Errors and fixes:',
      '6. All user messages:',
      '9. Optional Next Step:',
    ]) {
      expect(text).toContain(heading);
    }
    // Verbatim user messages, files with their actions, commands, the error and what followed.
    expect(text).toContain(`"${FIRST_REQUEST}"`);
    expect(text).toContain('/repo/src/app.ts — read');
    expect(text).toContain('/repo/src/util.ts — written');
    expect(text).toContain('/repo/src/cli.ts — edited');
    expect(text).toContain('cd /repo && npm test 2>&1 | tail -20');
    expect(text).toContain(TEST_ERROR);
    expect(text).toMatch(/followed by: Write \/repo\/src\/util\.ts \(succeeded\)/);
    expect(text).toContain('[in_progress] Run npm test again');
    expect(text).toContain('[pending] Add the --verbose flag');
    expect(text).toContain(`Continue with the user's most recent request, verbatim: "${LAST_REQUEST}"`);
    expect(text).toContain('"Always run npm test before you say it works."');
  });

  it('is deterministic and streams its text', async () => {
    const { request } = await prepared();
    const preset = requirePreset('claude-code-full');
    const deltas: string[] = [];
    const a = await createBuiltinSummarizer(preset).summarize(request, { onText: (d) => deltas.push(d) });
    const b = await createBuiltinSummarizer(preset).summarize(request);
    expect(a.text).toBe(b.text);
    expect(deltas.join('')).toBe(a.text);
    expect(a.model).toBe('builtin');
    expect(a.costUsd).toBe(0);
    expect(a.usage.outputTokens).toBeGreaterThan(0);
  });

  it.each(PROMPT_PRESETS.map((p) => [p.id]))('%s: keeps the facts a continuation needs', async (presetId) => {
    const preset = requirePreset(presetId);
    const { request, facts } = await prepared(presetId);
    const text = cleanupSummary(renderBuiltinSummary(request, preset), preset.output);
    const score = scoreRetention(facts, text);
    expect(score.byCategory.path.ratio).toBe(1);
    expect(score.byCategory.command.ratio).toBe(1);
    expect(score.byCategory.error.ratio).toBe(1);
    expect(score.byCategory['last-request'].ratio).toBe(1);
    expect(score.byCategory.instruction.ratio).toBe(1);
  });

  it('shapes its answer like the preset asks: XML for Gemini CLI, a tool call for Cline, markdown for OpenCode', async () => {
    const gemini = requirePreset('gemini-cli');
    const xml = renderBuiltinSummary((await prepared('gemini-cli')).request, gemini);
    expect(xml).toMatch(
      /<state_snapshot>[\s\S]*<overall_goal>[\s\S]*<\/task_state>[\s\S]*<\/state_snapshot>/,
    );
    const cline = requirePreset('cline-summarize-task');
    const tool = renderBuiltinSummary((await prepared('cline-summarize-task')).request, cline);
    expect(tool).toMatch(/^<summarize_task>\n<context>/);
    expect(cleanupSummary(tool, cline.output)).not.toContain('<context>');
    const md = renderBuiltinSummary((await prepared('opencode')).request, requirePreset('opencode'));
    expect(md).toContain('## Relevant files / directories');
  });

  it("follows an edited prompt's own section list", async () => {
    const prompt =
      'Summarize with these sections:\n1. Goal: what we want\n2. Files touched\n3. Blockers and errors\n4. Next step';
    const { request } = await prepared('claude-code-full', prompt);
    const text = renderBuiltinSummary(request, requirePreset('claude-code-full'));
    expect(text).toContain('1. Goal:');
    expect(text).toContain('2. Files touched:');
    expect(text).toContain('3. Blockers and errors:');
    expect(text).toContain('4. Next step:');
    expect(text).not.toContain('Primary Request and Intent');
    // Anything the edited list leaves out that a continuation needs is still there, marked.
    expect(text).toContain('All user messages (added by the built-in summarizer):');
  });
});

describe("the built-in summarizer's input on real compactions", () => {
  // The run's "in" is the request's own estimate, the figure the Summaries view shows above the
  // prompt: counting only the text once said 33,651 under a request of 43,390 (thinking blocks,
  // images and tool calls are what Claude Code's estimate counts besides).
  const files = corpusOrSkip('the built-in summarizer on corpus compactions')
    ? corpusFilesOf('claude-code').filter((f) => readFileSync(f, 'utf8').includes('"compact_boundary"'))
    : [];
  it.skipIf(files.length === 0)(
    "equals the request's estimate, thinking and tool calls counted",
    async () => {
      let withThinking = 0;
      for (const file of files.slice(0, 6)) {
        const source = createMemorySource(basename(file), readFileSync(file));
        const session = await parseSession([source]);
        const real = session.compactions.findIndex((c) => c.kind === 'compact');
        if (real < 0) continue;
        const preset = requirePreset('claude-code-full');
        const prepared = await prepareSummary(
          session,
          [source],
          { kind: 'compaction', compactionIndex: real },
          getPresetSettings(preset.id),
        );
        const result = await createBuiltinSummarizer(preset).summarize(prepared.request);
        expect(result.usage.inputTokens, basename(file)).toBe(prepared.estimatedTokens);
        if (
          prepared.request.messages.some(
            (m) => typeof m.content !== 'string' && m.content.some((b) => b.type === 'thinking'),
          )
        )
          withThinking++;
      }
      // The files tried hold thinking blocks: where the text-only count said less.
      expect(withThinking).toBeGreaterThan(0);
    },
  );
});
