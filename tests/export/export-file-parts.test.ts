import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeCompactedJsonl } from '../../src/engine/export/compacted-jsonl';
import { describeReplayedStrategy } from '../../src/engine/export/strategy-name';
import { formatTranscriptHtml, formatTranscriptMarkdown } from '../../src/engine/export/transcript-export';
import { getShownMainFile } from '../../src/engine/parse/other-sessions';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeConversation } from '../../src/engine/query/conversation';
import { getRedactionRefusal } from '../../src/engine/redact/mask';
import { createEngineClient } from '../../src/worker/engine-client';
import { ENGINE_HANDLERS } from '../../src/worker/engine-handlers';
import { createInProcessPort } from '../../src/worker/in-process-port';
import { runReplay } from '../../src/worker/share-handlers';
import { corpusJsonl, corpusOrSkip } from '../helpers/corpus';

// The page's exports come from the worker as a file (a Blob) built from their lines, never joined
// into one string: the compacted transcript and the transcript of a 1 GB session are past the
// longest string V8 holds (about 512 M characters; `lines.join` threw "Invalid string length").
// The file must be the very text the engine's joined form gives, and the redaction's last scan
// must name the same line over the parts as over the joined text.

/** A real session with an auto-compaction, small enough for a unit test. */
function realCompactedSession(): string | undefined {
  return corpusJsonl().find((path) => {
    const bytes = statSync(path).size;
    return bytes > 200_000 && bytes < 3_000_000 && readFileSync(path, 'utf8').includes('"compact_boundary"');
  });
}

describe('exports leave the worker as files of parts', () => {
  it.runIf(corpusOrSkip('export files of a real compacted session'))(
    'the compacted transcript and the transcripts are the engine texts, byte for byte',
    async () => {
      const path = realCompactedSession();
      expect(path, 'a corpus session with a compaction').toBeDefined();
      const bytes = new Uint8Array(readFileSync(path!));
      const client = createEngineClient({
        start: (listener) => createInProcessPort(ENGINE_HANDLERS, listener),
      });
      await client.request({
        kind: 'load',
        sessionId: 1,
        files: [{ name: basename(path!), blob: new Blob([bytes]) }],
      });
      const replay = { strategyId: 'claude-code', overrides: {}, summaryModel: 'recorded' as const };
      const fileOf = (format: 'compacted-jsonl' | 'transcript-md' | 'transcript-html') =>
        client.request({ kind: 'export-file', sessionId: 1, format, replay });

      const sources = [createMemorySource(basename(path!), bytes)];
      const session = await parseSession(sources);
      const jsonl = await fileOf('compacted-jsonl');
      expect(jsonl).toBeInstanceOf(Blob);
      const expected = await computeCompactedJsonl(session, sources, {
        events: runReplay(session, replay).events,
        summaries: {},
        strategy: describeReplayedStrategy('claude-code'),
      });
      const written = await jsonl.text();
      expect(written).toBe(expected);
      expect(written.endsWith('}\n')).toBe(true);
      for (const line of written.slice(0, -1).split('\n')) expect(() => JSON.parse(line)).not.toThrow();

      const full = await parseSession(sources, { previewChars: Number.MAX_SAFE_INTEGER });
      const header = {
        name: getShownMainFile(full)?.name ?? 'transcript',
        agent: full.meta.agent,
        models: full.meta.models,
        setModels: full.meta.setModels,
      };
      const turns = computeConversation(full);
      expect(await (await fileOf('transcript-md')).text()).toBe(formatTranscriptMarkdown(header, turns));
      expect(await (await fileOf('transcript-html')).text()).toBe(formatTranscriptHtml(header, turns));
      client.terminate();
    },
  );

  it('the last scan names the same line over the parts as over their joined text', () => {
    const secret = 'sk-ant-api03-Zq8vN2xLm4Pt7Rw1Ys5Ub3Kc9Hd6Fg0Je2Ai8Mo4';
    const settings = { unmasked: [], known: [{ id: 'k1', kind: 'env-secret' as const, value: secret }] };
    // A part may hold newlines of its own (a Markdown block); the secret is on the text's line 7.
    const parts = ['# Title', 'line two\nline three', '', 'five\nsix', `seven holds ${secret}`, 'eight'];
    const joined = parts.join('\n');
    expect(joined.split('\n').findIndex((l) => l.includes(secret)) + 1).toBe(7);
    expect(getRedactionRefusal(parts, settings)).toBe(getRedactionRefusal(joined, settings));
    expect(getRedactionRefusal(parts, settings)).toMatch(/on output line 7$/);
    expect(getRedactionRefusal(parts.slice(0, 4), settings)).toBeUndefined();
  });
});
