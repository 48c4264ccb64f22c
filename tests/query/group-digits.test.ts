import { describe, expect, it } from 'vitest';
import { formatCount, groupDigits } from '../../src/engine/query/format';

describe('groupDigits', () => {
  const samples = [
    0,
    -0,
    1,
    -1,
    7,
    12,
    999,
    1000,
    -1000,
    1234,
    12345,
    123456,
    1234567,
    -9876543,
    1e9,
    1e15 + 1,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 53,
    1e21,
    1e300,
    0.5,
    1234.5678,
    -0.001,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];

  it('writes what toLocaleString("en-US") writes', () => {
    for (const n of samples) expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    for (let k = 0; k < 2000; k++) {
      const n = Math.round((k * 7919) ** 1.7) * (k % 2 ? -1 : 1);
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('groups integers without the locale machinery', () => {
    expect(groupDigits(1234567)).toBe('1,234,567');
    expect(groupDigits(-1000)).toBe('-1,000');
    expect(formatCount(1234.6)).toBe('1,235');
  });
});
