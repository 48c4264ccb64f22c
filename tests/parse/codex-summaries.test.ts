import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeLogErosion } from '../../src/engine/erosion/erosion';
import { collectLogSummaries, formatSummariesMarkdown } from '../../src/engine/export/summary-export';
import { parseSession, readEntryText } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getCompactionDetail } from '../../src/engine/query/compaction-detail';
import { getSummariesInfo } from '../../src/engine/summarize/session-ops';
import { runCli } from '../helpers/run-cli';
import { CODEX_ROLLOUT as FIXTURE } from '../fixtures/codex-rollout';
import { corpusFilesOf, corpusName, corpusOrSkip } from '../helpers/corpus';

// What a Codex CLI compaction's card shows as its summary. A `compacted` record is its own summary
// entry: a local compaction writes the summary as `message`; a remote one (OpenAI's compaction
// endpoint) an empty `message` and a replacement history whose summary is an encrypted
// `compaction` item (codex-cli/info.ts). The card said "No summary message follows this boundary"
// for both, on every real Codex compaction of the corpus.

/** The card's summary and note for compaction `index` of the session read from `sources`. */
async function summaryOf(sources: ReturnType<typeof createMemorySource>[], index = 0) {
  const session = await parseSession(sources);
  const compaction = session.compactions[index]!;
  expect(compaction.summaryEntryIndex).toBe(compaction.entryIndex);
  const raw = await readEntryText(sources, session, compaction.summaryEntryIndex!);
  const detail = getCompactionDetail(session, index, raw);
  return { text: detail.summaryText, note: detail.summaryNote, session };
}

/** The fixture with its `compacted` record's payload replaced. */
function withCompacted(payload: unknown): string {
  return FIXTURE.split('\n')
    .map((l) => (JSON.parse(l).type === 'compacted' ? JSON.stringify({ ...JSON.parse(l), payload }) : l))
    .join('\n');
}
const rollout = (text: string) => [
  createMemorySource('rollout-2026-05-01T09-00-00-sess-1.jsonl', `${text}\n`),
];

describe('Codex CLI compaction summaries', () => {
  it("a local compaction: the summary is the record's message, whole", async () => {
    const summary = `Hand-off.\n${'The goal was to plant tomatoes. '.repeat(200)}`;
    const { text, note } = await summaryOf(rollout(withCompacted({ message: summary })));
    expect(text).toBe(summary);
    expect(note).toBeUndefined();
  });

  it('a remote compaction: the summary is encrypted, and the note counts what the history keeps', async () => {
    const history = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'plant' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'water' }] },
      { type: 'compaction_summary', encrypted_content: 'x'.repeat(1234) },
    ];
    const { text, note } = await summaryOf(
      rollout(withCompacted({ message: '', replacement_history: history })),
    );
    expect(text).toBeUndefined();
    expect(note).toBe(
      "Encrypted: a remote compaction (OpenAI's compaction endpoint wrote the summary as a `compaction` item of 1,234 characters of ciphertext); its text is not in the log. Its replacement history keeps 2 user, 1 assistant messages beside it.",
    );
    // The Markdown export says so without an empty code block (a real remote compaction,
    // Quelklef/shell-ws, exported "```text\n\n```" under its note).
    const sources = rollout(withCompacted({ message: '', replacement_history: history }));
    const exported = await collectLogSummaries(await parseSession(sources), sources);
    const markdown = formatSummariesMarkdown(
      { name: 'r.jsonl', agent: 'Codex CLI', versions: [], models: [] },
      exported,
    );
    expect(markdown).toContain('- Encrypted: a remote compaction');
    expect(markdown).not.toMatch(/`{3,}text/);
  });

  it("exports the summary a pi compaction keeps in `summary` (the exports read every dialect's own field)", async () => {
    const path = join(
      __dirname,
      '../fixtures/agents/2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl',
    );
    const text = readFileSync(path, 'utf8');
    const summaries = text
      .split('\n')
      .filter((l) => l.includes('"type":"compaction"'))
      .map((l) => JSON.parse(l).summary as string);
    expect(summaries.length).toBeGreaterThan(0);
    const sources = [createMemorySource(basename(path), text)];
    const exported = await collectLogSummaries(await parseSession(sources), sources);
    expect(exported.map((e) => e.text)).toEqual(summaries);
    expect(exported.every((e) => e.retention !== undefined && e.note === undefined)).toBe(true);
  });

  it('an empty message and no encrypted item: says the record holds none', async () => {
    const { note } = await summaryOf(rollout(FIXTURE));
    expect(note).toBe('No summary in this record: its `message` is empty.');
  });
});

corpusOrSkip('Codex compaction summaries (corpus)');
const withCompactions = corpusFilesOf('codex-cli').filter((f) =>
  readFileSync(f, 'utf8').includes('"compacted"'),
);

describe.skipIf(withCompactions.length === 0)('Codex CLI compaction summaries (corpus)', () => {
  it.each(withCompactions.map((f) => [corpusName(f), f]))(
    '%s: the note agrees with a plain count of the raw record',
    async (_name, path) => {
      const records = readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"type":"compacted"'))
        .map((l) => JSON.parse(l));
      const source = createNodeFileSource(path);
      const session = await parseSession([source]);
      expect(session.compactions).toHaveLength(records.length);
      for (const [i, record] of records.entries()) {
        const compaction = session.compactions[i]!;
        const raw = await readEntryText([source], session, compaction.summaryEntryIndex!);
        const detail = getCompactionDetail(session, i, raw);
        // Every real one is remote: an empty message, one encrypted item.
        expect(record.payload.message).toBe('');
        const items: { type: string; role?: string; encrypted_content?: string }[] =
          record.payload.replacement_history;
        const encrypted = items.filter((x) => x.type === 'compaction');
        expect(encrypted).toHaveLength(1);
        const roles = ['user', 'assistant', 'developer']
          .map((role) => [role, items.filter((x) => x.type === 'message' && x.role === role).length] as const)
          .filter(([, n]) => n > 0)
          .map(([role, n]) => `${n} ${role}`);
        expect(detail.summaryText).toBeUndefined();
        expect(detail.summaryNote).toContain(
          `a \`compaction\` item of ${encrypted[0]!.encrypted_content!.length.toLocaleString('en-US')} characters of ciphertext`,
        );
        expect(detail.summaryNote).toContain(`keeps ${roles.join(', ')} messages`);
      }
      // The exports say it, unscored, rather than scoring an empty text…
      const exported = await collectLogSummaries(session, [source]);
      expect(exported).toHaveLength(records.length);
      for (const e of exported) {
        expect(e.note).toMatch(/^Encrypted: a remote compaction/);
        expect(e.retention).toBeUndefined();
      }
      // The Summaries view offers no recorded summary there, and picks Codex's prompt.
      const info = await getSummariesInfo(session, [source]);
      expect(info.compactions.map((c) => c.hasSummary)).toEqual(records.map(() => false));
      expect(info.agentPresetId).toBe('codex');
      // So does the CLI: Codex's prompt by default, and no recorded summary to give back.
      const run = await runCli(['summarize', path, '--at', 'c0']);
      expect(run.code).toBe(0);
      expect(run.text).toContain('Request: preset codex ·');
      const recorded = await runCli(['summarize', path, '--at', 'c0', '--summarizer', 'recorded']);
      expect(recorded.code).toBe(1);
      expect(recorded.err).toContain(
        'the log holds no summary to read there. Encrypted: a remote compaction',
      );
      // …and so does the log's erosion chain.
      const chain = await computeLogErosion(session, [source]);
      expect(
        chain.notes.filter((n) => /Encrypted: a remote compaction.* Not scored\.$/.test(n)),
      ).toHaveLength(records.length);
    },
  );
});
