import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { detectUtf16 } from '../../src/engine/parse/encoding';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

const record = (uuid: string, text: string) =>
  JSON.stringify({
    type: 'user',
    uuid,
    parentUuid: null,
    sessionId: 's1',
    timestamp: '2026-02-01T10:00:00.000Z',
    message: { role: 'user', content: text },
  });

const utf8 = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

function utf16(text: string, byteOrder: 'le' | 'be', bom: boolean): Uint8Array {
  const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const units = bom ? `\uFEFF${text}` : text;
  for (let i = 0; i < units.length; i++) {
    const unit = units.charCodeAt(i);
    out[2 * i + (byteOrder === 'le' ? 0 : 1)] = unit & 0xff;
    out[2 * i + (byteOrder === 'le' ? 1 : 0)] = unit >> 8;
  }
  return out;
}

describe('invalid UTF-8', () => {
  // Line 2 holds a lone 0xFF byte in its text; line 3 a genuine U+FFFD, which is valid UTF-8.
  const bytes = concat(
    utf8(`${record('u1', 'hello')}\n${record('u2', 'bad ').slice(0, -3)}`),
    Uint8Array.of(0xff),
    utf8(`"}}\n${record('u3', 'real \uFFFD')}\n`),
  );

  for (const chunkBytes of [1, 7, 4096]) {
    it(`names the line with bad bytes and loads its record (chunks of ${chunkBytes} bytes)`, async () => {
      const session = await parseSession([createMemorySource('s.jsonl', bytes)], { chunkBytes });
      expect(session.entries.map((e) => e.line)).toEqual([1, 2, 3]);
      expect(session.issues.map((i) => [i.line, i.code, i.severity])).toEqual([
        [2, 'invalid-utf8', 'warning'],
      ]);
      expect(at(session.issues, 0).message).toMatch(/^Line 2 is not valid UTF-8/);
    });
  }

  it('names a flipped byte that turns a known record type into an unknown one', async () => {
    const line = utf8(record('u1', 'hi'));
    const at = new TextDecoder().decode(line).indexOf('"user"') + 3;
    line[at] = 0xc3; // a lead byte without its continuation byte
    const session = await parseSession([
      createMemorySource('s.jsonl', concat(utf8(`${record('u0', 'x')}\n`), line)),
    ]);
    const codes = session.issues.filter((i) => i.line === 2).map((i) => i.code);
    expect(codes).toContain('invalid-utf8');
    expect(codes).toContain('unknown-record');
  });

  it('names a cut-off last line with bad bytes too', async () => {
    const bytes2 = concat(utf8(`${record('u1', 'hello')}\n{"type":"user","x":"`), Uint8Array.of(0xe2, 0x82));
    const session = await parseSession([createMemorySource('s.jsonl', bytes2)]);
    expect(session.issues.map((i) => [i.line, i.code]).sort()).toEqual([
      [2, 'invalid-utf8'],
      [2, 'truncated-line'],
    ]);
  });
});

describe('UTF-16 files', () => {
  const text = `${record('u1', 'hello')}\n${record('u2', 'again')}\n`;
  const cases = [
    ['little-endian', utf16(text, 'le', true)],
    ['big-endian', utf16(text, 'be', true)],
    ['little-endian', utf16(text, 'le', false)],
    ['big-endian', utf16(text, 'be', false)],
  ] as const;

  for (const [byteOrder, bytes] of cases) {
    it(`names a ${byteOrder} file${at(bytes, 0) > 0xfd ? ' with a byte-order mark' : ''} as UTF-16`, async () => {
      const session = await parseSession([createMemorySource('ps-redirect.jsonl', bytes)]);
      expect(session.entries).toHaveLength(0);
      expect(session.issues).toEqual([
        expect.objectContaining({ line: 0, code: 'not-a-transcript', severity: 'error' }),
      ]);
      expect(at(session.issues, 0).message).toBe(
        `ps-redirect.jsonl is UTF-16 (${byteOrder}) text; transcripts are UTF-8 JSON lines: convert it first (iconv -f UTF-16 -t UTF-8)`,
      );
    });
  }

  it('does not mistake UTF-8 text for UTF-16', () => {
    expect(detectUtf16(utf8(text))).toBeUndefined();
    expect(detectUtf16(utf8('日本語のテキスト'))).toBeUndefined();
    expect(detectUtf16(Uint8Array.of(0x7b))).toBeUndefined();
  });
});
