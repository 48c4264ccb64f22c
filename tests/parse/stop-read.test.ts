import { describe, expect, it } from 'vitest';
import { createMemorySource } from '../../src/engine/parse/source';
import { type ParseProgress, parseSession } from '../../src/engine/parse/parse-session';
import { generateSession } from '../../sample/generate-session';

// A load the person cancels keeps what was read (issue 20 item 2): `ParseOptions.stop` ends the
// read at the next chunk and the session is finished from the lines before it.

const generated = generateSession({ seed: 21, apiCalls: 400 });
const main = generated.files[0]!;
const bytes = new TextEncoder().encode(main.text);

describe('a stopped read', () => {
  it('keeps the lines read before the stop, says where, and marks the session partial', async () => {
    const whole = await parseSession([createMemorySource(main.name, bytes)]);
    const stop = new AbortController();
    let reports = 0;
    const partial = await parseSession([createMemorySource(main.name, bytes)], {
      chunkBytes: 16 * 1024,
      stop: stop.signal,
      onProgress: () => {
        if (++reports === 5) stop.abort();
      },
    });
    expect(partial.meta.partialRead).toBeDefined();
    const { bytesRead, totalBytes } = partial.meta.partialRead!;
    expect(totalBytes).toBe(bytes.byteLength);
    expect(bytesRead).toBeGreaterThan(0);
    expect(bytesRead).toBeLessThan(totalBytes);
    // Every line before the stop, none after; the entries are the whole parse's first ones.
    const lastLine = partial.entries.at(-1)!.line;
    const linesBefore = new TextDecoder().decode(bytes.subarray(0, bytesRead)).split('\n').length - 1;
    expect(lastLine).toBe(linesBefore);
    expect(partial.entries.length).toBeLessThan(whole.entries.length);
    expect(partial.entries.map((e) => e.offsetBytes)).toEqual(
      whole.entries.slice(0, partial.entries.length).map((e) => e.offsetBytes),
    );
    expect(partial.apiCalls.length).toBeGreaterThan(0);
    expect(partial.apiCalls.length).toBeLessThan(whole.apiCalls.length);
    const stopped = partial.issues.filter((i) => i.code === 'read-stopped');
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.message).toMatch(/stopped at \d+% \(byte [\d,]+ of [\d,]+\)/);
    expect(whole.meta.partialRead).toBeUndefined();
  });

  it('names the files it did not read', async () => {
    const stop = new AbortController();
    stop.abort();
    const session = await parseSession(
      generated.files.map((f) => createMemorySource(f.name, new TextEncoder().encode(f.text))),
      { stop: stop.signal },
    );
    expect(session.entries).toHaveLength(0);
    const notRead = session.issues.filter((i) => i.code === 'read-stopped' && /was not read/.test(i.message));
    expect(notRead.length).toBe(generated.files.length - 1);
  });

  it('reports the context of each call as it is read, adding up to the whole series', async () => {
    const whole = await parseSession([createMemorySource(main.name, bytes)]);
    const series: number[] = [];
    const reports: ParseProgress[] = [];
    await parseSession([createMemorySource(main.name, bytes)], {
      chunkBytes: 16 * 1024,
      onProgress: (p) => {
        reports.push(p);
        if (p.contexts) series.splice(p.contexts.from, series.length - p.contexts.from, ...p.contexts.tokens);
      },
    });
    // Drawn while it streams: the calls grow report by report.
    const counts = reports.map((r) => r.calls ?? 0);
    expect(counts.filter((c, i) => i > 0 && c > counts[i - 1]!).length).toBeGreaterThan(5);
    expect(series).toEqual(whole.apiCalls.map((c) => c.contextTokens));
  });
});
