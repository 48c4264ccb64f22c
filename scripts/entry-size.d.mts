// Types of scripts/entry-size.mjs, for the test that imports it.

export const ENTRY_BUDGET_BYTES: number;

export function measureEntry(dist: string): {
  chunks: { file: string; bytes: number; gzipBytes: number }[];
  gzipBytes: number;
};
