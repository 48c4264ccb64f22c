import { describe, expect, it } from 'vitest';
import { isSameFile, loadSecretCheck, readUrlState, writeUrlState } from '../../src/ui/url-state';
import { PLANTED_SECRETS } from '../redact/planted-secrets';

// The check the page loads before its first write (url-state.ts: kept out of the first load).
const looksSecret = await loadSecretCheck();

const HASH = 'a3f9c2e41b7d0856ffeeddccbbaa99887766554433221100aabbccddeeff0011';

describe('shareable URL state', () => {
  it('reads a zoom range only when it is two ordered positions', () => {
    const at = (zoom: string) =>
      readUrlState(`?file=${HASH.slice(0, 16)}&zoom=${encodeURIComponent(zoom)}`)?.zoom;
    expect(at('10-20.5')).toEqual({ from: 10, to: 20.5 });
    for (const bad of [
      '20-10',
      '5-5',
      '-1-4',
      '1e3-2e3',
      '1-2-3',
      'a-b',
      '1.234-5',
      `${'9'.repeat(12)}-1`,
      '',
    ])
      expect(at(bad), bad).toBeUndefined();
  });

  it('round-trips the view state and keeps parameters it does not own', () => {
    const search = writeUrlState(
      '?learn=tour&step=3&sample=0',
      {
        file: HASH,
        name: 'session one.jsonl',
        strategy: 'codex',
        knobs: { autoCompactPct: 80, sessionMemory: false, clearToolTypes: ['Read', 'Bash'], optional: null },
        entry: 42,
        event: 2,
        view: 'erosion',
        search: 'npm test & more',
        zoom: { from: 100.456, to: 220 },
      },
      looksSecret,
    );
    const params = new URLSearchParams(search);
    expect(params.get('learn')).toBe('tour');
    expect(params.get('step')).toBe('3');
    expect(params.get('sample')).toBe('0');
    // Only the hash's first 16 hex digits.
    expect(params.get('file')).toBe(HASH.slice(0, 16));
    expect(readUrlState(search)).toEqual({
      file: HASH.slice(0, 16),
      name: 'session one.jsonl',
      strategy: 'codex',
      knobs: { autoCompactPct: 80, clearToolTypes: ['Read', 'Bash'], optional: null, sessionMemory: false },
      entry: 42,
      event: 2,
      view: 'erosion',
      search: 'npm test & more',
      // The zoom range at two decimals (issue 24 item 2).
      zoom: { from: 100.46, to: 220 },
    });
    expect(params.get('zoom')).toBe('100.46-220');
    expect(isSameFile(readUrlState(search)!, HASH)).toBe(true);
    expect(isSameFile(readUrlState(search)!, `0${HASH.slice(1)}`)).toBe(false);
  });

  it('removes its own keys (and stale knobs) on a new write, never the others', () => {
    const first = writeUrlState('?step=2', { file: HASH, knobs: { a: 1, b: 2 }, entry: 5 }, looksSecret);
    const second = writeUrlState(first, { file: HASH, knobs: { b: 3 } }, looksSecret);
    const params = new URLSearchParams(second);
    expect(params.get('step')).toBe('2');
    expect(params.has('knob.a')).toBe(false);
    expect(params.get('knob.b')).toBe('3');
    expect(params.has('entry')).toBe(false);
    expect(writeUrlState(second, undefined, looksSecret)).toBe('?step=2');
  });

  it('never writes a value that looks like a key, token or password', () => {
    for (const planted of PLANTED_SECRETS) {
      // As written in context (some patterns need theirs: `aws_secret_access_key=…`).
      expect(looksSecret(planted.text), planted.kind).toBe(true);
      const search = writeUrlState(
        '',
        {
          file: HASH,
          name: planted.text,
          strategy: planted.text,
          knobs: { apiKey: planted.text },
        },
        looksSecret,
      );
      expect(decodeURIComponent(search).includes(planted.secret), planted.kind).toBe(false);
    }
  });

  it('reads untrusted input defensively', () => {
    expect(readUrlState('?entry=3')).toBeUndefined(); // no file: no link state
    expect(readUrlState('?file=not-hex')).toBeUndefined();
    const state = readUrlState(
      `?file=${HASH.slice(0, 16)}&entry=-1&event=1e9&view=<b>&strategy=a%20b&knob.ok=1&knob.bad={"x":1}&knob.<x>=2`,
    )!;
    expect(state).toEqual({ file: HASH.slice(0, 16), knobs: { ok: 1 } });
  });
});
