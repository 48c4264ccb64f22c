import { describe, expect, it } from 'vitest';
import { cleanupSummary, getRecordedSummaryBody } from '../../src/engine/summarize/cleanup';
import { createRecordedSummarizer, getRecordedCallFigures } from '../../src/engine/summarize/recorded';

describe('summary cleanup', () => {
  it('turns <analysis>/<summary> into headings for tag presets', () => {
    const raw = '<analysis>\nthinking\n</analysis>\n\n\n<summary>\n1. Intent: x\n</summary>';
    expect(cleanupSummary(raw, { kind: 'tag', tag: 'summary' })).toBe(
      'Analysis:\nthinking\n\nSummary:\n1. Intent: x',
    );
  });

  it('keeps a `$&` in the summary as written', () => {
    expect(cleanupSummary('<summary>cost $& more</summary>', { kind: 'tag', tag: 'summary' })).toBe(
      'Summary:\ncost $& more',
    );
  });

  it('takes the <context> of a Cline tool call and drops <thinking>', () => {
    const raw =
      '<thinking>plan</thinking>\n<summarize_task>\n<context>\nThe work.\n</context>\n</summarize_task>';
    expect(cleanupSummary(raw, { kind: 'tool', tool: 'summarize_task' })).toBe('The work.');
  });

  it('drops the Gemini scratchpad', () => {
    const raw =
      '<scratchpad>notes</scratchpad>\n<state_snapshot>\n<overall_goal>g</overall_goal>\n</state_snapshot>';
    expect(cleanupSummary(raw, { kind: 'xml', root: 'state_snapshot' })).toBe(
      '<state_snapshot>\n<overall_goal>g</overall_goal>\n</state_snapshot>',
    );
  });

  it('reads the summary out of a recorded continuation message (both openings)', () => {
    const v2 =
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Intent: ship it.\n\nIf you need specific details from before compaction (like exact code snippets), read the full transcript at: /x.jsonl\nPlease continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on.';
    expect(getRecordedSummaryBody(v2)).toBe('Summary:\n1. Intent: ship it');
    const legacy =
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary:\nDone..\nPlease continue the conversation from where we left it off without asking the user any further questions.';
    expect(getRecordedSummaryBody(legacy)).toBe('Summary:\nDone.');
  });

  it("the recorded summarizer returns that body with the compaction's figures", async () => {
    const summarizer = createRecordedSummarizer(
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nS.',
      getRecordedCallFigures({
        kind: 'compact',
        entryIndex: 3,
        fileIndex: 0,
        line: 4,
        trigger: 'auto',
        preTokens: 150_000,
        summaryTokens: 2_000,
        durationMs: 41_000,
        reattachedEntryIndices: [],
      }),
    );
    const result = await summarizer.summarize({
      system: '',
      messages: [],
      prompt: '',
      model: 'x',
      maxOutputTokens: 1,
    });
    expect(result).toMatchObject({
      text: 'S',
      model: 'recorded',
      durationMs: 41_000,
      usage: { inputTokens: 150_000, outputTokens: 2_000 },
    });
  });
});
