import { describe, expect, it } from 'vitest';
import { cleanSummaryTags, extractSummaryBlock } from '../../src/engine/compact/clean-summary';
import {
  formatContinuationMessage,
  getContinuationOverheadTokens,
} from '../../src/engine/compact/format-summary';

describe('cleanSummaryTags (MD5)', () => {
  it('turns the tags into headings, collapses blank lines and trims', () => {
    const raw =
      '\n<analysis>\n  Looked at a.ts\n\n\n\nthen b.ts\n</analysis>\n\n\n<summary>\n1. Primary Request: x\n</summary>\n';
    expect(cleanSummaryTags(raw)).toBe(
      'Analysis:\nLooked at a.ts\n\nthen b.ts\n\nSummary:\n1. Primary Request: x',
    );
  });

  it('keeps `$` sequences and text without tags, and is idempotent', () => {
    const raw = '<summary>costs $1 and $& stays</summary>';
    expect(cleanSummaryTags(raw)).toBe('Summary:\ncosts $1 and $& stays');
    expect(cleanSummaryTags(cleanSummaryTags(raw))).toBe(cleanSummaryTags(raw));
    expect(cleanSummaryTags('plain text')).toBe('plain text');
  });

  it('replaces only the first block of each kind', () => {
    expect(cleanSummaryTags('<summary>a</summary> <summary>b</summary>')).toBe(
      'Summary:\na <summary>b</summary>',
    );
    expect(extractSummaryBlock('<analysis>x</analysis><summary> y </summary>')).toBe('y');
    expect(extractSummaryBlock('none')).toBeUndefined();
  });
});

describe('formatContinuationMessage', () => {
  it('T91: legacy opening, summary and a period, continue line for auto', () => {
    expect(formatContinuationMessage('<summary>S</summary>', { format: 'legacy', auto: true })).toBe(
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary:\nS.\nPlease continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.',
    );
    expect(formatContinuationMessage('S', { format: 'legacy', auto: false })).toBe(
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nS.',
    );
  });

  it('JQ6: transcript hint, partial note, continue line for auto only', () => {
    const text = formatContinuationMessage('<summary>S</summary>', {
      format: 'v2.1.68',
      auto: true,
      transcriptPath: '/p/s.jsonl',
      partial: true,
    });
    expect(text).toBe(
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\nS\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /p/s.jsonl\n\nRecent messages are preserved verbatim.\nPlease continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on.',
    );
    const manual = formatContinuationMessage('S', { format: 'v2.1.68', auto: false });
    expect(manual.endsWith('\n\nS')).toBe(true);
    expect(manual).not.toContain('Please continue');
  });

  it('prices the wrapper in tokens', () => {
    const auto = getContinuationOverheadTokens({
      format: 'v2.1.68',
      auto: true,
      transcriptPath: '/p/s.jsonl',
    });
    const manual = getContinuationOverheadTokens({ format: 'v2.1.68', auto: false });
    expect(auto).toBeGreaterThan(manual);
    expect(manual).toBe(
      Math.round(formatContinuationMessage('', { format: 'v2.1.68', auto: false }).length / 4),
    );
  });
});
