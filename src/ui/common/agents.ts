import { DIALECT_INFOS } from '../../engine/parse/dialects/descriptors';

// The agents and formats the page reads, derived from the dialect registry (never a list of our
// own): the empty page and the sample's first-run line name them.

/** Each agent whose logs a registered dialect reads, once, in the registry's order. */
export function getReadAgents(): string[] {
  const seen = new Set<string>();
  for (const d of DIALECT_INFOS) if (d.parsed && d.agent) seen.add(d.agent);
  return [...seen];
}

/** "a, b and c" (English list). */
export function formatList(items: readonly string[], last = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}
