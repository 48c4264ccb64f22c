import type { DialectId, FileRole, Session, SessionFile, SessionMemory } from '../types';
import { computeBranches } from './branches';
import {
  baseName,
  DIALECT_LABELS,
  detectDialectFromName,
  detectDialectFromRecord,
  detectFileRole,
  isSessionMemoryName,
} from './detect';
import { claudeCodeNormalizer } from './dialects/claude-code';
import type { RecordContext, RecordNormalizer } from './dialects/record';
import { RECORD_NORMALIZERS } from './dialects/registry';
import { scanLines } from './line-reader';
import { SessionBuilder } from './session-builder';
import type { ByteSource } from './source';

export interface ParseProgress {
  bytesRead: number;
  totalBytes: number;
  fileIndex: number;
}

export interface ParseOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ParseProgress) => void;
  /** Bytes read per step (default 4 MiB). Tests use tiny chunks to catch boundary bugs. */
  chunkBytes?: number;
  /** Characters of each text block kept in memory (default 2,000); the rest is re-read on demand. */
  previewChars?: number;
}

export const DEFAULT_PREVIEW_CHARS = 2_000;
/** Lines looked at before deciding that a file is not a transcript. */
const DETECTION_WINDOW_LINES = 50;
/** Whole-file JSON (not JSONL) is parsed for a plain diagnosis only below this size. */
const WHOLE_JSON_LIMIT_BYTES = 64 * 1024 * 1024;

interface PendingLine {
  text: string;
  line: number;
  offsetBytes: number;
  lengthBytes: number;
  terminated: boolean;
}

const ROLE_ORDER: Record<FileRole, number> = {
  main: 0,
  subagent: 1,
  'side-question': 2,
  'compaction-call': 3,
  'session-memory': 4,
};

/** Decides each file's role; when no file looks like a main transcript, the first one is. */
function assignRoles(sources: ByteSource[]): SessionFile[] {
  const memory = sources.map((s) => isSessionMemoryName(s.name, false));
  const withTranscript = memory.some((m) => !m);
  const files = sources.map((source, index): SessionFile => {
    if (memory[index] || isSessionMemoryName(source.name, withTranscript)) {
      return {
        index,
        name: source.name,
        sizeBytes: source.sizeBytes,
        lines: 0,
        role: 'session-memory',
        dialect: 'unknown',
      };
    }
    const { role, agentId } = detectFileRole(source.name);
    return {
      index,
      name: source.name,
      sizeBytes: source.sizeBytes,
      lines: 0,
      role,
      agentId,
      dialect: 'unknown',
    };
  });
  const transcripts = files.filter((f) => f.role !== 'session-memory');
  if (transcripts.length > 0 && !transcripts.some((f) => f.role === 'main')) {
    const first =
      transcripts.find((f) => f.role === 'subagent' || f.role === 'side-question') ?? transcripts[0];
    first.role = 'main';
    first.openedAlone = true;
  }
  return files;
}

function snippet(text: string): string {
  const s = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return JSON.stringify(s);
}

/**
 * Finds where a second record starts inside a line that failed to parse (two writers appending
 * at once, FORMAT.md §8.1). Returns the parsed tail and whether the head parsed too.
 */
function recoverConcatenated(text: string): { records: unknown[]; headLost: boolean } | undefined {
  let from = 1;
  for (let tries = 0; tries < 64; tries++) {
    const at = text.indexOf('{"', from);
    if (at < 0) return undefined;
    from = at + 1;
    let tail: unknown;
    try {
      tail = JSON.parse(text.slice(at));
    } catch {
      const nested = recoverConcatenated(text.slice(at));
      if (!nested || nested.headLost) continue;
      tail = undefined;
      try {
        const head = JSON.parse(text.slice(0, at));
        return { records: [head, ...nested.records], headLost: false };
      } catch {
        return { records: nested.records, headLost: true };
      }
    }
    try {
      const head = JSON.parse(text.slice(0, at));
      return { records: [head, tail], headLost: false };
    } catch {
      return { records: [tail], headLost: true };
    }
  }
  return undefined;
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return `a JSON array of ${value.length} items`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 6);
    return `a JSON object (keys: ${keys.join(', ')}${Object.keys(value).length > 6 ? ', …' : ''})`;
  }
  return `a JSON ${typeof value}`;
}

/**
 * Parses one session: a main transcript plus any subagent / compaction-call files dropped with
 * it. Reads each source as a stream of chunks; never throws on bad input (issues are collected).
 * Rejects only when `signal` aborts.
 */
export async function parseSession(sources: ByteSource[], options: ParseOptions = {}): Promise<Session> {
  const previewChars = options.previewChars ?? DEFAULT_PREVIEW_CHARS;
  const builder = new SessionBuilder();
  const files = assignRoles(sources);
  for (const file of files) builder.addFile(file);
  const order = [...files].sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.index - b.index);
  const totalBytes = sources.reduce((sum, s) => sum + s.sizeBytes, 0);
  let bytesBefore = 0;
  let sessionMemory: SessionMemory | undefined;

  for (const file of order) {
    const source = sources[file.index];
    const fileIndex = file.index;
    if (file.role === 'session-memory') {
      // Plain text kept whole (Claude Code caps it at a few thousand tokens): no dialect, no records.
      const text = new TextDecoder().decode(await source.read(0, source.sizeBytes));
      options.signal?.throwIfAborted();
      file.lines = text === '' ? 0 : text.split('\n').length;
      sessionMemory ??= { name: source.name, text, chars: text.length };
      bytesBefore += source.sizeBytes;
      options.onProgress?.({ bytesRead: bytesBefore, totalBytes, fileIndex });
      continue;
    }
    let dialect: DialectId | undefined = detectDialectFromName(source.name);
    // A name that points to a dialect the engine cannot parse needs no reading.
    const nameSaysOther = dialect !== undefined && RECORD_NORMALIZERS[dialect] === undefined;
    let normalizer: RecordNormalizer = claudeCodeNormalizer;
    const pending: PendingLine[] = [];
    let jsonLines = 0;
    let firstJsonError: string | undefined;
    let decided = dialect === 'claude-code';
    let stopped = false;

    const ctx: RecordContext = {
      fileIndex,
      line: 0,
      offsetBytes: 0,
      lengthBytes: 0,
      previewChars,
      issue: (code, severity, message, path) =>
        builder.issue(fileIndex, ctx.line, code, severity, message, path),
    };

    const addRecord = (record: unknown, line: number, offsetBytes: number, lengthBytes: number): void => {
      ctx.line = line;
      ctx.offsetBytes = offsetBytes;
      ctx.lengthBytes = lengthBytes;
      const { entry, extras } = normalizer.normalize(record, ctx, builder.entries.length);
      builder.addEntry(entry, extras);
    };

    const handleLine = (p: PendingLine): void => {
      const { text, line, offsetBytes, lengthBytes, terminated } = p;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (!terminated) {
          builder.issue(
            fileIndex,
            line,
            'truncated-line',
            'error',
            `Line ${line} is cut off: the file ends without a newline in the middle of a record (${reason})`,
          );
          return;
        }
        const recovered = recoverConcatenated(text);
        if (recovered) {
          builder.issue(
            fileIndex,
            line,
            'concatenated-records',
            recovered.headLost ? 'error' : 'warning',
            recovered.headLost
              ? `Line ${line} holds a record cut off mid-write, followed by another record on the same line; the second record was recovered, the first is lost`
              : `Line ${line} holds ${recovered.records.length} records written without a newline between them; all were recovered`,
          );
          for (const r of recovered.records) addRecord(r, line, offsetBytes, lengthBytes);
          return;
        }
        builder.issue(
          fileIndex,
          line,
          'not-json',
          'error',
          `Line ${line} is not JSON: ${reason} — starts ${snippet(text)}`,
        );
        return;
      }
      addRecord(record, line, offsetBytes, lengthBytes);
    };

    const decide = (): void => {
      decided = true;
      if (dialect === undefined) {
        const message =
          jsonLines === 0
            ? `${baseName(source.name)} is not a transcript: none of its first lines is JSON (line 1: ${firstJsonError ?? 'empty'})`
            : `${baseName(source.name)} is not a transcript: its lines are JSON, but none is a Claude Code or Codex CLI record`;
        builder.issue(fileIndex, 0, 'not-a-transcript', 'error', message);
        stopped = true;
        return;
      }
      file.dialect = dialect;
      if (builder.format === 'unknown' || file.role === 'main') builder.format = dialect;
      const create = RECORD_NORMALIZERS[dialect];
      if (!create) {
        builder.issue(
          fileIndex,
          0,
          'unsupported-dialect',
          'error',
          `${baseName(source.name)} is a ${DIALECT_LABELS[dialect]}; this version reads Claude Code transcripts and Codex CLI rollouts only`,
        );
        stopped = true;
        return;
      }
      normalizer = create();
      builder.setFileNormalizer(fileIndex, normalizer);
      for (const p of pending) handleLine(p);
      pending.length = 0;
    };

    if (nameSaysOther) {
      decide();
      bytesBefore += source.sizeBytes;
      options.onProgress?.({ bytesRead: bytesBefore, totalBytes, fileIndex });
      continue;
    }

    let nonEmpty = 0;
    file.lines = await scanLines(
      source,
      (text, line, offsetBytes, lengthBytes, terminated) => {
        if (decided) {
          if (stopped) return false;
          if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
          handleLine({ text, line, offsetBytes, lengthBytes, terminated });
          return;
        }
        if (text.trim() === '') return;
        nonEmpty++;
        pending.push({ text, line, offsetBytes, lengthBytes, terminated });
        try {
          const found = detectDialectFromRecord(JSON.parse(text));
          jsonLines++;
          if (found) dialect = found;
        } catch (error) {
          firstJsonError ??= error instanceof Error ? error.message : String(error);
        }
        if (dialect !== undefined || nonEmpty >= DETECTION_WINDOW_LINES) {
          decide();
          if (stopped) return false;
        }
        return;
      },
      {
        chunkBytes: options.chunkBytes,
        signal: options.signal,
        onBytes: (read) => options.onProgress?.({ bytesRead: bytesBefore + read, totalBytes, fileIndex }),
      },
    );

    if (!decided) {
      if (nonEmpty === 0) {
        builder.issue(
          fileIndex,
          0,
          'empty-file',
          'warning',
          `${baseName(source.name)} is empty: there is nothing to show`,
        );
      } else if (jsonLines === 0 && source.sizeBytes <= WHOLE_JSON_LIMIT_BYTES) {
        // Maybe one pretty-printed JSON document rather than JSON lines: say what it is.
        const whole = await diagnoseWholeJson(source);
        if (whole) {
          dialect = whole.dialect;
          if (dialect) decide();
          else {
            builder.issue(
              fileIndex,
              0,
              'not-a-transcript',
              'error',
              `${baseName(source.name)} is not a transcript: it is ${whole.description}, not one record per line`,
            );
          }
        } else decide();
      } else decide();
    }
    bytesBefore += source.sizeBytes;
    options.onProgress?.({ bytesRead: bytesBefore, totalBytes, fileIndex });
  }

  const session = builder.build();
  if (sessionMemory) session.sessionMemory = sessionMemory;
  const branches = computeBranches(session);
  if (branches) session.branches = branches;
  return session;
}

async function diagnoseWholeJson(
  source: ByteSource,
): Promise<{ dialect?: DialectId; description: string } | undefined> {
  const text = new TextDecoder().decode(await source.read(0, source.sizeBytes));
  try {
    const value: unknown = JSON.parse(text);
    return { dialect: detectDialectFromRecord(value), description: describeJson(value) };
  } catch {
    return undefined;
  }
}

/** Re-reads an entry's raw line and returns it as text (for the raw-JSON view and summarizers). */
export async function readEntryText(
  sources: ByteSource[],
  session: Session,
  entryIndex: number,
): Promise<string> {
  const entry = session.entries[entryIndex];
  if (!entry) throw new RangeError(`No entry ${entryIndex}`);
  const bytes = await sources[entry.fileIndex].read(entry.offsetBytes, entry.lengthBytes);
  return new TextDecoder().decode(bytes);
}

/** Re-reads an entry's record as parsed JSON (full content, not the preview). */
export async function readEntryRecord(
  sources: ByteSource[],
  session: Session,
  entryIndex: number,
): Promise<unknown> {
  const text = await readEntryText(sources, session, entryIndex);
  try {
    return JSON.parse(text);
  } catch {
    // A recovered concatenated line holds several records, one entry each, added in line order:
    // this entry's position among the entries of that line picks its record.
    const entry = session.entries[entryIndex];
    let k = 0;
    for (let i = entryIndex - 1; i >= 0; i--) {
      const other = session.entries[i];
      if (other.fileIndex !== entry.fileIndex || other.line !== entry.line) break;
      k++;
    }
    return recoverConcatenated(text)?.records[k];
  }
}
