import { describe, expect, it } from 'vitest';
import { findHits } from '../../src/ui/common/highlighted-text';

describe('search hits in a row', () => {
  it('finds every occurrence, ignoring case, without overlaps', () => {
    expect(findHits('Read README.md, then read it again', 'READ')).toEqual([
      [0, 4],
      [5, 9],
      [21, 25],
    ]);
    expect(findHits('aaaa', 'aa')).toEqual([
      [0, 2],
      [2, 4],
    ]);
  });

  it('marks nothing for an empty search or where case folding changes the length', () => {
    expect(findHits('anything', '  ')).toEqual([]);
    // 'İ'.toLowerCase() is two code units: offsets in the folded text would not be the text's.
    expect(findHits('İstanbul istanbul', 'istanbul')).toEqual([]);
  });

  it('stops at 50 marks on a long preview', () => {
    expect(findHits('ab'.repeat(10_000), 'b')).toHaveLength(50);
  });
});
