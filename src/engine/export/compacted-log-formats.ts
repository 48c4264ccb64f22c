import { CLAUDE_CODE_DIALECT_INFO } from '../parse/dialects/claude-code/info';
import { getDialectInfo } from '../parse/dialects/descriptors';
import type { DialectId } from '../types';

// The log formats a compacted transcript can be written in: the dialect of the log read, as its
// records are written back with the replay's compactions in that dialect's own records. One line
// per writer (compacted-jsonl.ts writes Claude Code's: `compact_boundary`, `isCompactSummary`,
// docs/sources.md#fmt-compact-boundary-§4.2). The Export menu and the worker ask here; neither names an agent.

const WRITABLE_DIALECTS: readonly DialectId[] = [CLAUDE_CODE_DIALECT_INFO.id];

/** Whether a compacted transcript can be written for a log of this dialect. */
function canWriteCompactedLog(format: DialectId | undefined): boolean {
  return format !== undefined && WRITABLE_DIALECTS.includes(format);
}

/**
 * Why a log of this dialect gets no compacted transcript (undefined: it does). Named by the
 * dialects' labels, not their agents: a Claude Agent SDK stream is Claude Code's too, and "for
 * Claude Code logs only; this is a Claude Code log" said nothing.
 */
export function getCompactedLogRefusal(format: DialectId | undefined): string | undefined {
  if (canWriteCompactedLog(format)) return undefined;
  const writable = WRITABLE_DIALECTS.map((id) => getDialectInfo(id)?.label ?? id).join(', ');
  const info = getDialectInfo(format);
  const what = !info
    ? `a ${format ?? 'log of an unknown format'}`
    : info.agent === undefined || info.label.includes(info.agent)
      ? `a ${info.label}`
      : `a ${info.label} (${info.agent})`;
  return `Written in the log's own format, for a ${writable} only; this is ${what}`;
}
