import { buildCompactionRequest } from '../compact/build-request';
import {
  CONTINUATION_OPENING,
  formatContinuationMessage,
  LEGACY_CONTINUATION_OPENING,
} from '../compact/format-summary';
import { readEntryRecord, readEntryText } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { DEFAULT_PRESET_ID, requirePreset } from '../strategies/prompt-presets';
import { maskJsonValue, maskText, type RedactionSettings } from '../redact/mask';
import type { ReplayEvent, ReplayEventFields } from '../replay/types';
import { renderBuiltinSummary } from '../summarize/builtin';
import type { Session } from '../types';
import { getCompactedLogRefusal } from './compacted-log-formats';

import type { ReplayedStrategy } from './strategy-name';
// The transcript as Claude Code would have written it under a replay: the main file's records in
// order, with a `compact_boundary` system record and an `isCompactSummary` user record (docs/sources.md#fmt-compact-boundary, #fmt-summary-message) after the entry each replayed compaction follows. The log's own compactions that the
// replay did not keep (it only keeps manual ones, as resets) are left out, so the file re-opens
// with the replay's compactions and no others.

interface CompactedJsonlOptions {
  /** Replay events; those of kind `compact` become boundaries, `reset` keeps the log's records. */
  events: readonly ReplayEvent[];
  /** Raw summary text per event index (a summarizer's answer); others get the built-in summary. */
  summaries?: Readonly<Record<number, string>>;
  /**
   * The strategy replayed (strategy-name.ts): each boundary names it in a `compactlab` field (a
   * reader of the agent's format ignores it), a custom one with how to load it.
   */
  strategy?: ReplayedStrategy;
  /** Mask secrets in every record written. Absent: records are written as read. */
  redaction?: RedactionSettings;
  signal?: AbortSignal;
}

type JsonRecord = Record<string, unknown>;

/** A deterministic uuid-shaped id from a seed (FNV-1a over the seed, four rounds). */
function makeUuid(seed: string): string {
  let hex = '';
  for (let round = 0; round < 4; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < seed.length; i++) {
      h ^= seed.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    hex += (h >>> 0).toString(16).padStart(8, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A raw line with its secrets masked: as JSON when it is one record, else (two records a racing
 * writer put on one line) as text. A mask is plain text with no quote or backslash, so it keeps
 * a JSON string valid.
 */
function maskLine(line: string, redaction: RedactionSettings): string {
  try {
    return JSON.stringify(maskJsonValue(JSON.parse(line), redaction));
  } catch {
    return maskText(line, redaction);
  }
}

/** The envelope fields a Claude Code record repeats (docs/sources.md#fmt-envelope), taken from a nearby record. */
function getEnvelope(record: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const key of ['isSidechain', 'userType', 'cwd', 'sessionId', 'version', 'gitBranch', 'slug'])
    if (record[key] !== undefined) out[key] = record[key];
  out.isSidechain = false;
  return out;
}

/** The built-in summary of what an event replaced, and its raw text. */
async function getBuiltinSummary(
  session: Session,
  sources: ByteSource[],
  event: ReplayEventFields,
  previousSummary: string | undefined,
  redaction: RedactionSettings | undefined,
  signal?: AbortSignal,
): Promise<string> {
  const preset = requirePreset(DEFAULT_PRESET_ID);
  const spec = event.request;
  const built = await buildCompactionRequest(session, sources, {
    uptoEntryIndex: spec?.uptoEntryIndex ?? event.afterEntryIndex,
    fromEntryIndex: spec?.fromEntryIndex ?? event.spanFromEntryIndex,
    variant: spec?.variant === 'partial' ? 'partial' : 'full',
    keepFromEntryIndex: spec?.keepFromEntryIndex,
    customInstructions: spec?.customInstructions,
    excludeEntryIndices: spec?.excludeEntryIndices,
    previousSummaryText: spec?.previousSummaryTokens !== undefined ? previousSummary : undefined,
    elideBase64: true,
    signal,
  });
  // Summarized from the masked span when redacting, so no fragment of a secret is quoted.
  const messages = redaction ? maskJsonValue(built.messages, redaction) : built.messages;
  return renderBuiltinSummary(
    {
      system: built.system,
      messages,
      prompt: built.prompt,
      model: 'builtin',
      maxOutputTokens: 0,
    },
    { sections: preset.sections, output: preset.output },
  );
}

/** The compacted transcript as JSON lines (one record per line, trailing newline). */
export async function computeCompactedJsonl(
  session: Session,
  sources: ByteSource[],
  options: CompactedJsonlOptions,
): Promise<string> {
  const lines = await computeCompactedJsonlLines(session, sources, options);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * The compacted transcript's lines (no newline), held but never joined: a file is written from
 * them line by line, as the transcript of a session of 1 GB is past the longest string a
 * JavaScript engine holds (about 512 M characters in V8).
 */
export async function computeCompactedJsonlLines(
  session: Session,
  sources: ByteSource[],
  options: CompactedJsonlOptions,
): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of generateCompactedJsonlLines(session, sources, options)) lines.push(line);
  return lines;
}

/**
 * The compacted transcript's lines (no newline), one after the other, as they are read: a file
 * written from them never holds the whole transcript at once (the CLI's export of a 100 MB log).
 */
export async function* generateCompactedJsonlLines(
  session: Session,
  sources: ByteSource[],
  options: CompactedJsonlOptions,
): AsyncGenerator<string> {
  const refusal = getCompactedLogRefusal(session.format);
  if (refusal) throw new Error(refusal);
  const mainFile = session.files.find((f) => f.role === 'main')?.index ?? 0;
  const resets = new Set<number>();
  const inserts = new Map<number, { event: ReplayEventFields; eventIndex: number }[]>();
  for (const [eventIndex, event] of options.events.entries()) {
    if (event.kind === 'reset' && event.realCompactionIndex !== undefined)
      resets.add(event.realCompactionIndex);
    if (event.kind !== 'compact') continue;
    const list = inserts.get(event.afterEntryIndex) ?? [];
    list.push({ event, eventIndex });
    inserts.set(event.afterEntryIndex, list);
  }
  // The log's compact records (boundary and summary) that the replay does not keep.
  const dropped = new Set<number>();
  for (const [i, c] of session.compactions.entries()) {
    if (c.kind !== 'compact' || resets.has(i)) continue;
    dropped.add(c.entryIndex);
    if (c.summaryEntryIndex !== undefined) dropped.add(c.summaryEntryIndex);
  }
  const mask = (record: unknown): unknown =>
    options.redaction ? maskJsonValue(record, options.redaction) : record;
  let lastLine = -1;
  let previousSummary: string | undefined;
  /** After an insertion: the uuid the next record chained to, and the summary's uuid it chains to now. */
  let rechain: { from: string; to: string } | undefined;
  for (const entry of session.entries) {
    if (entry.fileIndex !== mainFile) continue;
    if (entry.index % 256 === 0) options.signal?.throwIfAborted();
    if (!dropped.has(entry.index) && entry.line !== lastLine) {
      // Recovered concatenated records share a line: it is written once, as it was.
      lastLine = entry.line;
      if (rechain && entry.parentUuid === rechain.from) {
        const record = (await readEntryRecord(sources, session, entry.index)) as JsonRecord;
        yield JSON.stringify(mask({ ...record, parentUuid: rechain.to }));
        rechain = undefined;
      } else if (options.redaction) {
        yield maskLine(await readEntryText(sources, session, entry.index), options.redaction);
      } else {
        yield await readEntryText(sources, session, entry.index);
      }
    }
    for (const { event, eventIndex } of inserts.get(entry.index) ?? []) {
      const anchor = (await readEntryRecord(sources, session, entry.index)) as JsonRecord;
      const envelope = getEnvelope(anchor);
      const timestamp = typeof anchor.timestamp === 'string' ? anchor.timestamp : undefined;
      const logicalParent = event.afterUuid ?? entry.uuid;
      const boundaryUuid = makeUuid(`boundary:${eventIndex}:${logicalParent ?? entry.index}`);
      const summaryUuid = makeUuid(`summary:${eventIndex}:${logicalParent ?? entry.index}`);
      const raw =
        options.summaries?.[eventIndex] ??
        (await getBuiltinSummary(
          session,
          sources,
          event,
          previousSummary,
          options.redaction,
          options.signal,
        ));
      previousSummary = raw;
      const trigger = event.trigger === 'manual' ? 'manual' : 'auto';
      const boundary: JsonRecord = {
        parentUuid: null,
        ...(logicalParent ? { logicalParentUuid: logicalParent } : {}),
        ...envelope,
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        ...(timestamp ? { timestamp } : {}),
        uuid: boundaryUuid,
        level: 'info',
        compactMetadata: { trigger, preTokens: Math.round(event.preTokens) },
        ...(options.strategy
          ? {
              compactlab: {
                replayedStrategy: options.strategy.name,
                ...(options.strategy.custom ? { customStrategy: options.strategy.custom } : {}),
              },
            }
          : {}),
      };
      const summary: JsonRecord = {
        parentUuid: boundaryUuid,
        ...envelope,
        type: 'user',
        message: {
          role: 'user',
          // A recorded summary is already a continuation message: written as it is.
          content:
            raw.startsWith(CONTINUATION_OPENING) || raw.startsWith(LEGACY_CONTINUATION_OPENING)
              ? raw
              : formatContinuationMessage(raw, {
                  format: 'v2.1.68',
                  auto: trigger === 'auto',
                  partial: event.mechanism === 'partial',
                }),
        },
        isVisibleInTranscriptOnly: true,
        isCompactSummary: true,
        uuid: summaryUuid,
        ...(timestamp ? { timestamp } : {}),
      };
      yield JSON.stringify(mask(boundary));
      yield JSON.stringify(mask(summary));
      if (logicalParent) rechain = { from: logicalParent, to: summaryUuid };
    }
  }
}
