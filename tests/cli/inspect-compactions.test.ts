import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// `inspect` said "saved — tokens, cleared 0 tool results" for each of a real Cline task's nine
// truncations: the words of a microcompaction, for an event that drops whole messages. A
// truncation now gives the context before and after it and the API history messages no longer
// sent, as the report's JSON always had them.

const CLINE_HISTORY = join(CORPUS, 'mike4567__MRA04242026/api_conversation_history.json');

describe.skipIf(!corpusOrSkip('inspect on a real Cline task'))('inspect: a real Cline task', () => {
  it('gives each truncation its sizes and the messages it dropped', async () => {
    const text = await runCli(['inspect', CLINE_HISTORY]);
    expect(text.code).toBe(0);
    const json = await runCli(['inspect', '--json', CLINE_HISTORY]);
    const compactions = JSON.parse(json.text).compactions as {
      kind: string;
      preTokens: number;
      postTokens: number;
      deletedRange: [number, number];
    }[];
    const lines = text.text.split('\n').filter((l) => /^ {2}Compaction \d+ of/.test(l));
    expect(lines).toHaveLength(compactions.length);
    expect(compactions.length).toBeGreaterThan(0);
    for (const [i, c] of compactions.entries()) {
      expect(c.kind).toBe('truncate');
      const sizes = `${c.preTokens.toLocaleString('en-US')} → ${c.postTokens.toLocaleString('en-US')} tokens`;
      expect(lines[i]).toContain(
        `truncate (auto)  ${sizes}, API history messages ${c.deletedRange[0]}–${c.deletedRange[1]} dropped`,
      );
      expect(lines[i]).not.toContain('tool results');
    }
    // The first: the input fell from 97,679 to 48,018 tokens (the raw records' `metrics.tokens.prompt`).
    expect(lines[0]).toContain('97,679 → 48,018 tokens');
  });
});
