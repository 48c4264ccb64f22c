// The one binary search of the replay: sorted typed arrays of positions and entry indices.

/** Index of the first element of a sorted Int32Array that is ≥ `value` (`array.length` when none). */
export function lowerBound(array: Int32Array, value: number): number {
  let lo = 0;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (array[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
