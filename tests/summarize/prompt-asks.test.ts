import { describe, expect, it } from 'vitest';
import { readPromptAsks } from '../../src/engine/prompts/prompt-asks';
import { renderBuiltinSummary } from '../../src/engine/summarize/builtin';
import { prepareSummary } from '../../src/engine/summarize/prepare';
import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import { loadFixture } from './fixture';

// The built-in summarizer follows what an edited prompt asks that it can honour (issue 24 item 1):
// "keep it under 300 words" gave the same 2,816-token summary as the preset, with a diff of
// "0 changed regions".

async function summaryFor(edit: (prompt: string) => string): Promise<{ text: string; base: string }> {
  const { session, sources } = await loadFixture();
  const preset = requirePreset('claude-code-full');
  const real = session.compactions.findIndex((c) => c.kind === 'compact');
  const run = async (prompt: string) => {
    const { request } = await prepareSummary(
      session,
      sources,
      { kind: 'compaction', compactionIndex: real },
      {
        presetId: preset.id,
        prompt,
        customInstructions: '',
        systemPrompt: preset.systemPrompt,
        model: 'builtin',
        maxOutputTokens: preset.maxOutputTokens,
      },
    );
    return renderBuiltinSummary(request, preset);
  };
  return { text: await run(edit(preset.prompt)), base: await run(preset.prompt) };
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== '').length;

describe('what a prompt asks beyond its sections', () => {
  it('reads a length limit however it is put, the tightest one winning', () => {
    expect(readPromptAsks('Keep it under 300 words.').limit).toMatchObject({ count: 300, unit: 'words' });
    expect(readPromptAsks('At most 2,000 tokens, please').limit).toMatchObject({
      count: 2000,
      unit: 'tokens',
    });
    expect(readPromptAsks('a summary of 150 words or fewer').limit).toMatchObject({
      count: 150,
      unit: 'words',
    });
    expect(readPromptAsks('no more than 500 words; max 1200 characters').limit).toMatchObject({
      count: 1200,
      unit: 'characters',
    });
    expect(readPromptAsks('Summarize the conversation in 9 sections.').limit).toBeUndefined();
  });

  it('reads the sections it says to leave out, not other negations', () => {
    const asks = readPromptAsks("Don't include the commands run. Omit errors and fixes.");
    expect(asks.omit.map((o) => o.fill)).toEqual(['commands', 'errors']);
    expect(readPromptAsks('Do not respond with anything but text.').omit).toEqual([]);
  });

  it('reads a 200 kB adversarial prompt in linear time (CPU time, not wall time)', () => {
    const cpuMs = (text: string) => {
      const start = process.cpuUsage();
      readPromptAsks(text);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    const unit = `under ${'1,'.repeat(40)} ${' '.repeat(50)}1 ${'-'.repeat(30)} don't include ${'x'.repeat(70)} `;
    const small = unit.repeat(500);
    const big = unit.repeat(2000);
    const best = (t: string) => Math.min(cpuMs(t), cpuMs(t), cpuMs(t));
    const [a, b] = [best(small), best(big)];
    expect(b).toBeLessThan(Math.max(50, a * 8));
  });
});

describe('the built-in summary follows them', () => {
  it('"keep it under 300 words" gives a summary of at most 300 words that says so', async () => {
    const { text, base } = await summaryFor((p) => `${p}\n\nKeep it under 300 words.`);
    expect(words(base)).toBeGreaterThan(300);
    expect(words(text)).toBeLessThanOrEqual(300);
    expect(text).toContain('Followed from the prompt: the limit "under 300 words"');
    // The headings the prompt asks for are all still there, in its order.
    for (const heading of ['1. Primary Request and Intent:', '9. Optional Next Step:'])
      expect(text).toContain(heading);
    expect(text).not.toContain('added by the built-in summarizer');
  });

  it('"don\'t include the commands" drops that section and does not add it back', async () => {
    const { text, base } = await summaryFor((p) => `${p}\n\nDon't include the commands that were run.`);
    expect(base).toContain('Commands run (added by the built-in summarizer)');
    expect(text).not.toContain('Commands run');
    expect(text).toContain('left out "Don\'t include the commands that were run"');
  });
});
