// Checks for bugs, not for bad input (Perfetto's split: `assert` for what cannot happen when the
// code is right, a result or an issue for what user data can do). A failure names what broke.

/** Throws when `cond` is false: a broken invariant of our own code. */
export function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

/** `items[index]`, or a RangeError naming the index and length: an index out of range is a bug. */
export function at<T>(items: ArrayLike<T>, index: number): T {
  const item = items[index];
  if (item === undefined && !(index >= 0 && index < items.length))
    throw new RangeError(`index ${index} is out of range (length ${items.length})`);
  return item as T;
}
