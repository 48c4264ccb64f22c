import { at } from '../assert';
import type { ApiCall, Compaction, Entry, Session, SessionFile } from '../types';
import type { TranscriptConventions } from './dialects/descriptor';

// A session's compaction events as its entries arrive: each boundary record becomes a
// `Compaction`, placed after the API call it followed, and the summary and re-attached records
// that come after it are collected (docs/sources.md#fmt-compaction).

/** What the tracker reads and fills of the session being built (`SessionBuilder`). */
interface CompactionTrackerState {
  readonly files: readonly SessionFile[];
  readonly apiCalls: readonly ApiCall[];
  readonly compactions: Compaction[];
  readonly cleared: Session['cleared'];
  readonly conventions: readonly TranscriptConventions[];
  readonly callsByFile: ReadonlyMap<number, readonly number[]>;
}

export class CompactionTracker {
  /** The compaction whose summary / re-attachments are still being collected. */
  private openCompaction: Compaction | undefined;

  constructor(private readonly session: CompactionTrackerState) {}

  track(entry: Entry): void {
    const isMainFile = at(this.session.files, entry.fileIndex).role === 'main';
    if (entry.compact || entry.microcompact) {
      const compaction: Compaction = {
        kind: entry.compact ? (entry.compact.kind ?? 'compact') : 'microcompact',
        entryIndex: entry.index,
        fileIndex: entry.fileIndex,
        uuid: entry.uuid,
        line: entry.line,
        timestampMs: entry.timestampMs,
        trigger: (entry.compact ?? entry.microcompact)!.trigger,
        preTokens: (entry.compact ?? entry.microcompact)!.preTokens,
        reattachedEntryIndices: [],
      };
      const file = at(this.session.files, entry.fileIndex);
      const isMainThread = isMainFile && (!entry.isSidechain || file.openedAlone === true);
      const follows = entry.compact?.followsFileCall;
      if (isMainThread && follows !== undefined) {
        const fileCalls = this.session.callsByFile.get(entry.fileIndex) ?? [];
        if (follows >= 0 && follows < fileCalls.length) compaction.apiCallBefore = fileCalls[follows];
        // The next call may already have started before the record that shows the event.
        const after = fileCalls[follows + 1];
        if (after !== undefined) {
          compaction.apiCallAfter = after;
          compaction.postTokens = at(this.session.apiCalls, after).contextTokens;
        }
      } else if (isMainThread && this.session.apiCalls.length > 0)
        compaction.apiCallBefore = this.session.apiCalls.length - 1;
      if (entry.compact) {
        compaction.summaryTokens = entry.compact.postTokens;
        if (entry.compact.postScope) compaction.summaryScope = entry.compact.postScope;
        compaction.durationMs = entry.compact.durationMs;
        if (entry.compact.deletedRange) compaction.deletedRange = entry.compact.deletedRange;
        if (entry.compact.keptFromEntryIndex !== undefined)
          compaction.keptFromEntryIndex = entry.compact.keptFromEntryIndex;
        if (entry.compact.summaryEntryIndex !== undefined)
          compaction.summaryEntryIndex = entry.compact.summaryEntryIndex;
        // A truncation has no summary or re-attachments to collect.
        if (compaction.kind === 'compact') this.openCompaction = compaction;
      } else if (entry.microcompact) {
        compaction.tokensSaved = entry.microcompact.tokensSaved;
        compaction.clearedToolIds = entry.microcompact.compactedToolIds;
        // The boundary does not rewrite earlier lines: the cleared state is applied by tool id.
        for (const id of entry.microcompact.compactedToolIds) {
          this.session.cleared.set(id, { toolUseId: id, compactionIndex: this.session.compactions.length });
        }
      }
      this.session.compactions.push(compaction);
      return;
    }
    const open = this.openCompaction;
    if (!open || entry.fileIndex !== open.fileIndex) return;
    if (entry.kind === 'assistant') {
      this.openCompaction = undefined;
      return;
    }
    if (entry.kind === 'user' && entry.isCompactSummary && open.summaryEntryIndex === undefined) {
      open.summaryEntryIndex = entry.index;
      return;
    }
    if (open.summaryEntryIndex === undefined) return;
    const first = entry.blocks[0];
    const text = first?.kind === 'text' ? first.text.trimStart() : '';
    const trace =
      entry.kind === 'user' || entry.kind === 'attachment'
        ? this.session.conventions[entry.fileIndex]?.readCommandTrace?.(text)
        : undefined;
    const isCommandTrace = entry.kind === 'user' && (entry.isMeta || trace?.isTrace === true);
    if (entry.kind === 'attachment' || isCommandTrace) {
      open.reattachedEntryIndices.push(entry.index);
      if (trace?.compactInstructions) open.customInstructions = trace.compactInstructions;
    } else if (entry.kind === 'user') {
      this.openCompaction = undefined;
    }
  }
}
