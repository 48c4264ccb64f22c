import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { openSessionFiles } from '../../src/cli/session-files';
import { parseSession } from '../../src/engine/parse/parse-session';
import { getPresetSettings } from '../helpers/preset-settings';
import { getSummariesInfo, prepareSummaryAt } from '../../src/engine/summarize/session-ops';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// The Summaries workbench and `compactlab summarize` offered the main thread's compactions only: a
// real session's four subagents compacted their own contexts nine times and none could be picked
// (an error that it was no full compaction of the main transcript). Each is a point now, under its subagent, its
// span that subagent's log since its previous boundary, its recorded summary the one its log
// holds. Checked against the raw records, read with JSON.parse alone.

const present = corpusOrSkip('subagent compaction points corpus test');
const DIR = join(CORPUS, 'LAF-US__IDAHO-VAULT');
const SESSION = '05541cb5-fe43-41c9-87ef-2a6d89bba271';

interface PlainCompaction {
  agentId: string;
  /** The `isCompactSummary` text after the boundary. */
  summary: string;
  /** The log's first user text (the task) when this is its first compaction. */
  firstUserText?: string;
  /** The context its log's last response before the boundary was sent with (input + cache). */
  contextBefore?: number;
}

/** Each subagent log's boundaries in order, with the summary after each. */
function plainCompactions(files: readonly string[]): PlainCompaction[] {
  const out: PlainCompaction[] = [];
  for (const file of files) {
    const agentId = /agent-([a-z0-9]+)\.jsonl$/.exec(file)?.[1];
    if (!agentId) continue;
    const records = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
    const firstUser = records.find((r) => r.type === 'user' && typeof r.message?.content === 'string');
    let contextBefore: number | undefined;
    records.forEach((r, i) => {
      const u = r.message?.usage;
      if (u)
        contextBefore =
          u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
      if (r.type !== 'system' || r.subtype !== 'compact_boundary') return;
      const next = records[i + 1];
      out.push({
        agentId,
        summary: next?.isCompactSummary === true ? String(next.message.content) : '',
        contextBefore,
        ...(out.every((c) => c.agentId !== agentId) ? { firstUserText: firstUser?.message.content } : {}),
      });
    });
  }
  return out;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : (content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');

describe.skipIf(!present)("corpus: a session's subagent compactions as summary points", () => {
  const files = present
    ? readdirSync(DIR)
        .filter((f) => f.includes(SESSION))
        .sort()
        .map((f) => join(DIR, f))
    : [];
  const logs = files.filter((f) => f.endsWith('.jsonl'));

  it('each is offered under its subagent, with its own span and its own recorded summary', async () => {
    const sources = await openSessionFiles(files);
    const session = await parseSession(sources);
    const info = await getSummariesInfo(session, sources);
    const plain = plainCompactions(logs);
    expect(plain).toHaveLength(9);
    // The main thread's stay as they were: its own file's boundaries.
    const mainBoundaries = readFileSync(logs[0]!, 'utf8').split('"compact_boundary"').length - 1;
    expect(info.compactions).toHaveLength(mainBoundaries);
    const mainSummaries = readFileSync(logs[0]!, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"isCompactSummary":true'))
      .map((l) => textOf(JSON.parse(l).message.content));
    expect(mainSummaries).toHaveLength(mainBoundaries);
    expect(info.subagentCompactions.map((c) => c.subagent.id)).toEqual(plain.map((c) => c.agentId));
    const settings = getPresetSettings('claude-code-full');
    for (const [i, c] of info.subagentCompactions.entries()) {
      const want = plain[i]!;
      const meta = JSON.parse(
        readFileSync(files.find((f) => f.endsWith(`agent-${want.agentId}.meta.json`))!, 'utf8'),
      );
      expect(c.subagent).toEqual({ id: want.agentId, type: meta.agentType, description: meta.description });
      expect(c.hasSummary).toBe(true);
      const prepared = await prepareSummaryAt(
        session,
        sources,
        { kind: 'compaction', compactionIndex: c.compactionIndex },
        settings,
      );
      expect(prepared.span.label).toMatch(
        new RegExp(`^subagent Explore ${want.agentId}: compaction ${c.index + 1} of ${c.total} \\(auto\\)`),
      );
      expect(prepared.recordedContinuation?.trim(), want.agentId).toBe(want.summary.trim());
      // Its log's calls are not the session's API calls: the context before was '—' in the CLI.
      expect(want.contextBefore).toBeGreaterThan(100_000);
      expect(prepared.span.contextTokensBefore, want.agentId).toBe(want.contextBefore);
      const first = textOf(prepared.request.messages[0]!.content);
      // The span starts at the log's task, or at the previous boundary's summary.
      if (want.firstUserText !== undefined) expect(first).toContain(want.firstUserText.slice(0, 200));
      else expect(first).toContain(plain[i - 1]!.summary.slice(300, 420));
      // Never the main thread's: none of its summaries is in it.
      const sent = prepared.request.messages.map((m) => textOf(m.content)).join('\n');
      for (const summary of mainSummaries) expect(sent).not.toContain(summary.slice(300, 420));
    }
  });

  it('summarize --at c<N> --summarizer recorded: a subagent compaction, its summary', async () => {
    const plain = plainCompactions(logs);
    let stdout = '';
    const code = await main(
      ['summarize', ...files, '--at', 'c8', '--summarizer', 'recorded', '--json', '--send-unmasked'],
      (t) => {
        stdout += t;
      },
    );
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as {
      span: { label: string; subagentFileIndex?: number; contextTokensBefore?: number };
      summary: { text: string };
    };
    // c0–c5 are the main thread's six; c8 is the second subagent's first.
    expect(json.span.label).toMatch(/^subagent Explore a6e0641177278d14c: compaction 1 of 2 \(auto\)/);
    expect(json.span.contextTokensBefore).toBe(plain[2]!.contextBefore);
    expect(json.summary.text).toContain(plain[2]!.summary.slice(300, 420));
  });
});
