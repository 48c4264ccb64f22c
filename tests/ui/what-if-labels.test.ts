import { describe, expect, it } from 'vitest';
import { labelBaseline } from '../../src/ui/library/what-if-results';

// The what-if's cost bars carry their value above them; the real cost is a dashed line across.
// A cost a little under the real one (IDAHO-VAULT's 90%: $46.06 against $47.23, 4 px apart at
// 1280×720) had the line through its value. A label's box: 11 px above its baseline, 3 below.

const ASCENT = 11;
const DESCENT = 3;
/** Whether a label on `baseline` keeps clear of a 1.5 px line at `lineY`. */
const clearOf = (baseline: number, lineY: number) =>
  baseline + DESCENT <= lineY - 0.75 || baseline - ASCENT >= lineY + 0.75;

describe('what-if bar values', () => {
  it('sit just above their bar when the real cost is far', () => {
    expect(labelBaseline(120, 40)).toBe(116);
    expect(labelBaseline(120, 190)).toBe(116);
  });

  it('move above the dashed line wherever it would cross them', () => {
    for (let lineY = 90; lineY <= 130; lineY += 0.5) {
      const baseline = labelBaseline(120, lineY);
      expect(clearOf(baseline, lineY), `line at ${lineY}, label on ${baseline}`).toBe(true);
      // Never lower than the bar's own place (nor into the bar).
      expect(baseline).toBeLessThanOrEqual(116);
    }
  });

  it('at the same cost as the real one, the line runs along the bar top, under the value', () => {
    expect(labelBaseline(120, 120)).toBe(116);
  });
});
