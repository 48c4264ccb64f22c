import { readSpanMessages } from '../compact/span-messages';
import { readEntryText } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { getThreadPlace, readSummaryNote, readSummaryText } from '../query/compaction-detail';
import { formatOrdinal } from '../query/numbering';
import { maskJsonValue, type RedactionSettings } from '../redact/mask';
import { extractRetentionFacts } from '../retention/extract';
import { scoreRetention } from '../retention/score';
import { getCompactionSpan, getSubagentCompactions } from '../summarize/span';
import type { Session } from '../types';
import type { ExportedSummary } from './summary-export';

// The summaries subagents wrote when their own contexts were compacted (a Claude Code subagent's
// log holds its compact boundaries and summaries, docs/sources.md#fmt-subagents): exported with the
// main thread's, each under its subagent, numbered in its own log as the compaction card numbers
// it, and scored against the span it replaced, that log's messages since its previous boundary.

/** Each subagent compaction's recorded summary, in log order, scored against its own span. */
export async function collectSubagentSummaries(
  session: Session,
  sources: ByteSource[],
  options: { redaction?: RedactionSettings; signal?: AbortSignal } = {},
): Promise<ExportedSummary[]> {
  const { redaction, signal } = options;
  const out: ExportedSummary[] = [];
  for (const { compactionIndex, compaction } of getSubagentCompactions(session)) {
    const place = getThreadPlace(session, compaction);
    if (compaction.summaryEntryIndex === undefined) continue;
    signal?.throwIfAborted();
    const raw = await readEntryText(sources, session, compaction.summaryEntryIndex);
    const read = readSummaryText(session, compaction.summaryEntryIndex, raw);
    const label = `${formatOrdinal('compaction', place.index, place.total)} (${compaction.trigger}) at line ${compaction.line}`;
    const recorded: ExportedSummary = {
      source: 'log',
      label,
      pointLabel: label,
      thread: { subagent: place.subagent ?? '', index: place.index, total: place.total },
      trigger: compaction.trigger,
      preTokens: compaction.preTokens,
      postTokens: compaction.postTokens,
      text: read ?? '',
    };
    if (read === undefined) {
      const note = readSummaryNote(session, compaction.summaryEntryIndex, raw);
      out.push(note === undefined ? recorded : { ...recorded, note });
      continue;
    }
    // The span the Summaries workbench offers at this compaction (summarize/span.ts).
    const { fromEntryIndex, uptoEntryIndex, subagentFileIndex } = getCompactionSpan(session, {
      kind: 'compaction',
      compactionIndex,
    });
    const span = await readSpanMessages(
      session,
      sources,
      { fromEntryIndex, uptoEntryIndex, subagentFileIndex },
      { signal },
    );
    // With a redaction, the facts come from the masked span, as the main thread's do (prepare.ts).
    const messages = redaction ? maskJsonValue(span.messages, redaction) : span.messages;
    const { matches: _matches, ...retention } = scoreRetention(
      extractRetentionFacts(messages),
      recorded.text,
    );
    out.push({ ...recorded, retention });
  }
  return out;
}
