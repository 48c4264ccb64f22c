// A record re-read whole (for a summarizer's request, erosion, an export) goes on to code that
// recurses over it: `JSON.stringify`, the token estimate, the fact collector. A tool input nested
// 5,000 objects deep is valid JSON that `JSON.parse` reads (it does not recurse) but that
// overflows the stack of each of those, so the part nested too deep is cut here, once, without
// recursing.

/** ours (real records nest a few dozen levels; `JSON.stringify` overflows Node's stack near 5,000) */
const MAX_RECORD_DEPTH = 1_000;

/** What stands in for a value nested deeper than `MAX_RECORD_DEPTH`. */
export const TOO_DEEP_TEXT = `[nested deeper than ${MAX_RECORD_DEPTH} levels: left out]`;

/**
 * `value` with every object or array nested deeper than `maxDepth` replaced by `TOO_DEEP_TEXT`
 * (changed in place; the same value when nothing is that deep). Iterative: linear in the value's
 * size, whatever its depth.
 */
export function capDepth(value: unknown, maxDepth = MAX_RECORD_DEPTH): unknown {
  if (value === null || typeof value !== 'object') return value;
  const stack: { node: Record<string, unknown> | unknown[]; depth: number }[] = [
    { node: value as Record<string, unknown>, depth: 1 },
  ];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { node, depth } = top;
    const keys = Array.isArray(node) ? node.keys() : Object.keys(node);
    for (const key of keys) {
      const child = (node as Record<string | number, unknown>)[key];
      if (child === null || typeof child !== 'object') continue;
      if (depth >= maxDepth) (node as Record<string | number, unknown>)[key] = TOO_DEEP_TEXT;
      else stack.push({ node: child as Record<string, unknown>, depth: depth + 1 });
    }
  }
  return value;
}
