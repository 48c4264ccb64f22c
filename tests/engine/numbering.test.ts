import { describe, expect, it } from 'vitest';
import { formatOrdinal, formatOrdinalTitle, formatPlural } from '../../src/engine/query/numbering';

describe('numbering', () => {
  it('numbers from 1 for people, with the total when given', () => {
    expect(formatOrdinal('api-call', 11, 340)).toBe('API call 12 of 340');
    expect(formatOrdinal('compaction', 0)).toBe('compaction 1');
    expect(formatOrdinalTitle('compaction', 1, 3)).toBe('Compaction 2 of 3');
    expect(formatOrdinal('replay-event', 1233, 2000)).toBe('replay event 1,234 of 2,000');
  });

  it('puts the plural only where it belongs', () => {
    expect(formatPlural(1, 'compaction')).toBe('1 compaction');
    expect(formatPlural(0, 'compaction')).toBe('0 compactions');
    expect(formatPlural(1234, 'entry', 'entries')).toBe('1,234 entries');
  });
});
