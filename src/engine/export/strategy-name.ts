import { getStrategy } from '../strategies/registry';

// How an export names the strategy it replayed: as the page shows it (a custom one's
// "Custom: <label>"), with its id. A custom strategy's code travels in no export nor link (it is
// the user's code, and a file that arrives never runs code by itself), so what names one says so,
// and how the receiver loads it: the strategy's .ts file, imported in the page's Custom strategy
// editor or given to `compactlab replay --strategy-file`.

export interface ReplayedStrategy {
  id: string;
  /** "Claude Code (claude-code)", "Custom: Keep 20k (keep-20k)"; the id alone if unknown. */
  name: string;
  /** A custom strategy: where its code came from and how to load it (plain text). */
  custom?: { fileName?: string; howToLoad: string };
}

/** What an export says of the strategy `id` (registered in this engine, or not). */
export function describeReplayedStrategy(id: string): ReplayedStrategy {
  let strategy: ReturnType<typeof getStrategy> | undefined;
  try {
    strategy = getStrategy(id);
  } catch {
    return { id, name: id };
  }
  const name = strategy.label === id ? id : `${strategy.label} (${id})`;
  if (!strategy.custom) return { id, name };
  const file = strategy.custom.fileName ?? `${id}.ts`;
  return {
    id,
    name,
    custom: {
      ...(strategy.custom.fileName ? { fileName: strategy.custom.fileName } : {}),
      howToLoad: `a custom strategy: its code is not in this file. To replay it, get ${file} from whoever wrote it and import it in CompactLab's Custom strategy editor (then Run), or run: compactlab replay <session> --strategy-file ${file}`,
    },
  };
}
