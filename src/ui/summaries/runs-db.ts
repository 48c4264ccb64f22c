import type { Table } from 'dexie';
import { type Database, openDatabase, sharedDatabase } from '../common/lazy-dexie';
import { hasIndexedDb } from '../common/storage';
import type { RetentionScore } from '../../engine/retention/types';
import type { PromptSettings } from '../../engine/summarize/prepare';
import type { CompactionPoint } from '../../engine/summarize/span';
import type { SummarizerKind } from '../../engine/summarize/types';
import { announceRunsChanged } from './runs-sync';
import { getPointKey } from './summary-sizes';

// Every summarization is a run, kept in IndexedDB. A run records what was summarized (transcript
// by content hash and name, compaction point), how (preset, edited prompt, settings, summarizer,
// model), and what came out (summary, tokens, duration, cost, retention). It never holds an API
// key: the summarizer is recorded by kind, model and base URL only.

export const RUN_SCHEMA_VERSION = 1;

export interface SummaryRun {
  id: string;
  schemaVersion: number;
  /** Epoch milliseconds. */
  createdAt: number;
  name: string;
  starred: boolean;
  transcript: { contentHash: string; name: string };
  point: CompactionPoint & { label: string };
  /** The prompt as edited and its settings (system prompt, model, max tokens, temperature…). */
  settings: PromptSettings;
  summarizer: { kind: SummarizerKind; model: string; baseUrl?: string };
  /** The summary as the continuation carries it (tags cleaned). */
  summary: string;
  /** The summarizer's answer as received. */
  rawSummary: string;
  tokensIn: number;
  tokensOut: number;
  /** The summary's size in the context after compaction. */
  summaryTokens: number;
  summaryTokensSource: 'api' | 'estimate';
  /** chars / 4 estimate of the request, and the provider's exact count when one was made. */
  requestEstimatedTokens: number;
  requestExactTokens?: number;
  durationMs: number;
  costUsd?: number;
  stopReason?: string;
  /** Without per-fact matches (those are recomputed from the span when needed). */
  retention: Omit<RetentionScore, 'matches'>;
}

type RunsTables = { runs: Table<SummaryRun, string> };
export type RunsDatabase = Database<RunsTables>;

const RUNS_STORES = {
  runs: 'id, createdAt, transcript.contentHash, settings.presetId, summarizer.kind, starred',
};

/** A runs database of its own (a test's). */
export function openRunsDatabase(name: string): Promise<RunsDatabase> {
  return openDatabase<RunsTables>(name, RUNS_STORES);
}

const openAppRunsDb = sharedDatabase<RunsTables>('compactlab-summaries', RUNS_STORES);

/**
 * The app's runs database, opened on first use; undefined where the browser keeps no storage (the
 * runs are then kept in `memoryRuns` until the tab closes, and the page says so).
 */
async function getRunsDb(): Promise<RunsDatabase | undefined> {
  return hasIndexedDb() ? openAppRunsDb() : undefined;
}

/** Runs of a browser without storage, by id. */
const memoryRuns = new Map<string, SummaryRun>();

/** Runs, newest first. */
export async function listRuns(given?: RunsDatabase): Promise<SummaryRun[]> {
  const db = given ?? (await getRunsDb());
  if (!db) return [...memoryRuns.values()].sort((a, b) => b.createdAt - a.createdAt);
  return (await db.runs.orderBy('createdAt').reverse().toArray()) as SummaryRun[];
}

export async function saveRun(run: SummaryRun, given?: RunsDatabase): Promise<void> {
  const db = given ?? (await getRunsDb());
  if (db) await db.runs.put(run);
  else memoryRuns.set(run.id, run);
  announceRunsChanged();
}

export async function renameRun(id: string, name: string, given?: RunsDatabase): Promise<void> {
  const db = given ?? (await getRunsDb());
  if (db) await db.runs.update(id, { name });
  else updateMemoryRun(id, { name });
  announceRunsChanged();
}

export async function setRunStarred(id: string, starred: boolean, given?: RunsDatabase): Promise<void> {
  const db = given ?? (await getRunsDb());
  if (db) await db.runs.update(id, { starred });
  else updateMemoryRun(id, { starred });
  announceRunsChanged();
}

/**
 * Stores the provider's exact count of a request in the runs that sent it (same transcript,
 * point and settings) and do not have one yet.
 */
export async function saveExactTokensOfMatchingRuns(
  contentHash: string,
  point: CompactionPoint,
  settings: PromptSettings,
  requestExactTokens: number,
  given?: RunsDatabase,
): Promise<number> {
  const db = given ?? (await getRunsDb());
  const pointKey = getPointKey(point);
  const settingsKey = JSON.stringify(settings);
  const matches = (run: SummaryRun) =>
    run.requestExactTokens === undefined &&
    getPointKey(run.point) === pointKey &&
    JSON.stringify(run.settings) === settingsKey;
  if (!db) {
    let changed = 0;
    for (const run of memoryRuns.values())
      if (run.transcript.contentHash === contentHash && matches(run)) {
        memoryRuns.set(run.id, { ...run, requestExactTokens });
        changed++;
      }
    if (changed > 0) announceRunsChanged();
    return changed;
  }
  const changed = await db.runs
    .where('transcript.contentHash')
    .equals(contentHash)
    .filter(matches)
    .modify({ requestExactTokens });
  if (changed > 0) announceRunsChanged();
  return changed;
}

export async function deleteRuns(ids: string[], given?: RunsDatabase): Promise<void> {
  const db = given ?? (await getRunsDb());
  if (db) await db.runs.bulkDelete(ids);
  else for (const id of ids) memoryRuns.delete(id);
  announceRunsChanged();
}

function updateMemoryRun(id: string, change: Partial<SummaryRun>): void {
  const run = memoryRuns.get(id);
  if (run) memoryRuns.set(id, { ...run, ...change });
}

const RUNS_FILE_FORMAT = 'compactlab-summary-runs';

interface RunsFile {
  format: typeof RUNS_FILE_FORMAT;
  version: number;
  exportedAt: string;
  runs: SummaryRun[];
}

/** The export file's text for some runs (all of a run's fields, as stored). */
export function serializeRuns(runs: SummaryRun[], now = new Date()): string {
  const file: RunsFile = {
    format: RUNS_FILE_FORMAT,
    version: RUN_SCHEMA_VERSION,
    exportedAt: now.toISOString(),
    runs,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The redaction a run's request was made with: the ids of the secrets left unmasked. */
function parseRedaction(value: unknown, path: string): { unmasked: string[] } {
  const unmasked = (value as { unmasked?: unknown } | null)?.unmasked;
  if (!Array.isArray(unmasked))
    throw new RunsFileError(`${path}.unmasked`, 'expected an array of secret ids');
  for (const [i, id] of unmasked.entries())
    if (typeof id !== 'string')
      throw new RunsFileError(`${path}.unmasked[${i}]`, `expected a string, got ${typeof id}`);
  return { unmasked: [...unmasked] };
}

/** A problem in an imported file, with the path of the value at fault. */
class RunsFileError extends Error {
  constructor(path: string, message: string) {
    super(`At ${path}: ${message}`);
    this.name = 'RunsFileError';
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `${typeof v === 'object' ? 'an' : 'a'} ${typeof v}`;
}

function expect<T>(
  value: unknown,
  path: string,
  kind: 'string' | 'number' | 'boolean' | 'object',
  optional = false,
): T {
  if (optional && value === undefined) return value as T;
  const ok =
    kind === 'object'
      ? isObject(value)
      : typeof value === kind && (kind !== 'number' || Number.isFinite(value));
  if (!ok)
    throw new RunsFileError(
      path,
      `expected ${kind === 'object' ? 'an object' : `a ${kind}`}, got ${describeValue(value)}`,
    );
  return value as T;
}

const SUMMARIZER_KINDS = new Set(['builtin', 'anthropic', 'openai', 'recorded']);

/** Validates one run read from a file; fields CompactLab does not know are dropped. */
function readRun(value: unknown, path: string): SummaryRun {
  const r = expect<Json>(value, path, 'object');
  const transcript = expect<Json>(r.transcript, `${path}.transcript`, 'object');
  const point = expect<Json>(r.point, `${path}.point`, 'object');
  const settings = expect<Json>(r.settings, `${path}.settings`, 'object');
  const summarizer = expect<Json>(r.summarizer, `${path}.summarizer`, 'object');
  const retention = expect<Json>(r.retention, `${path}.retention`, 'object');
  if (point.kind !== 'compaction' && point.kind !== 'api-call') {
    throw new RunsFileError(
      `${path}.point.kind`,
      `expected "compaction" or "api-call", got ${JSON.stringify(point.kind)}`,
    );
  }
  const kind = expect<string>(summarizer.kind, `${path}.summarizer.kind`, 'string');
  if (!SUMMARIZER_KINDS.has(kind))
    throw new RunsFileError(`${path}.summarizer.kind`, `unknown summarizer "${kind}"`);
  const pointIndex =
    point.kind === 'compaction'
      ? {
          kind: 'compaction' as const,
          compactionIndex: expect<number>(point.compactionIndex, `${path}.point.compactionIndex`, 'number'),
        }
      : {
          kind: 'api-call' as const,
          apiCallIndex: expect<number>(point.apiCallIndex, `${path}.point.apiCallIndex`, 'number'),
        };
  const optionalNumber = (v: unknown, p: string) => expect<number | undefined>(v, p, 'number', true);
  const run: SummaryRun = {
    id: expect<string>(r.id, `${path}.id`, 'string'),
    schemaVersion: expect<number>(r.schemaVersion, `${path}.schemaVersion`, 'number'),
    createdAt: expect<number>(r.createdAt, `${path}.createdAt`, 'number'),
    name: expect<string>(r.name, `${path}.name`, 'string'),
    starred: expect<boolean>(r.starred, `${path}.starred`, 'boolean'),
    transcript: {
      contentHash: expect<string>(transcript.contentHash, `${path}.transcript.contentHash`, 'string'),
      name: expect<string>(transcript.name, `${path}.transcript.name`, 'string'),
    },
    point: { ...pointIndex, label: expect<string>(point.label, `${path}.point.label`, 'string') },
    settings: {
      presetId: expect<string>(settings.presetId, `${path}.settings.presetId`, 'string'),
      prompt: expect<string>(settings.prompt, `${path}.settings.prompt`, 'string'),
      customInstructions: expect<string>(
        settings.customInstructions,
        `${path}.settings.customInstructions`,
        'string',
      ),
      systemPrompt: expect<string>(settings.systemPrompt, `${path}.settings.systemPrompt`, 'string'),
      model: expect<string>(settings.model, `${path}.settings.model`, 'string'),
      maxOutputTokens: expect<number>(settings.maxOutputTokens, `${path}.settings.maxOutputTokens`, 'number'),
      ...(settings.temperature === undefined
        ? {}
        : { temperature: optionalNumber(settings.temperature, `${path}.settings.temperature`) }),
      ...(settings.keepFromApiCallIndex === undefined
        ? {}
        : {
            keepFromApiCallIndex: optionalNumber(
              settings.keepFromApiCallIndex,
              `${path}.settings.keepFromApiCallIndex`,
            ),
          }),
      ...(settings.redact === undefined
        ? {}
        : { redact: parseRedaction(settings.redact, `${path}.settings.redact`) }),
    },
    summarizer: {
      kind: kind as SummarizerKind,
      model: expect<string>(summarizer.model, `${path}.summarizer.model`, 'string'),
      ...(summarizer.baseUrl === undefined
        ? {}
        : { baseUrl: expect<string>(summarizer.baseUrl, `${path}.summarizer.baseUrl`, 'string') }),
    },
    summary: expect<string>(r.summary, `${path}.summary`, 'string'),
    rawSummary: expect<string>(r.rawSummary, `${path}.rawSummary`, 'string'),
    tokensIn: expect<number>(r.tokensIn, `${path}.tokensIn`, 'number'),
    tokensOut: expect<number>(r.tokensOut, `${path}.tokensOut`, 'number'),
    summaryTokens: expect<number>(r.summaryTokens, `${path}.summaryTokens`, 'number'),
    summaryTokensSource: r.summaryTokensSource === 'api' ? 'api' : 'estimate',
    requestEstimatedTokens: expect<number>(
      r.requestEstimatedTokens,
      `${path}.requestEstimatedTokens`,
      'number',
    ),
    ...(r.requestExactTokens === undefined
      ? {}
      : { requestExactTokens: optionalNumber(r.requestExactTokens, `${path}.requestExactTokens`) }),
    durationMs: expect<number>(r.durationMs, `${path}.durationMs`, 'number'),
    ...(r.costUsd === undefined ? {} : { costUsd: optionalNumber(r.costUsd, `${path}.costUsd`) }),
    ...(r.stopReason === undefined
      ? {}
      : { stopReason: expect<string>(r.stopReason, `${path}.stopReason`, 'string') }),
    retention: {
      total: expect<number>(retention.total, `${path}.retention.total`, 'number'),
      kept: expect<number>(retention.kept, `${path}.retention.kept`, 'number'),
      ratio: expect<number>(retention.ratio, `${path}.retention.ratio`, 'number'),
      byCategory: expect<RetentionScore['byCategory']>(
        retention.byCategory,
        `${path}.retention.byCategory`,
        'object',
      ),
      missed: Array.isArray(retention.missed) ? (retention.missed as RetentionScore['missed']) : [],
    },
  };
  return run;
}

/** Parses an export file; throws RunsFileError naming the path of the first bad value. */
export function parseRunsFile(text: string): SummaryRun[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RunsFileError('(file)', `not JSON: ${(error as Error).message}`);
  }
  const file = expect<Json>(json, '(file)', 'object');
  if (file.format !== RUNS_FILE_FORMAT) {
    throw new RunsFileError(
      'format',
      `expected "${RUNS_FILE_FORMAT}", got ${JSON.stringify(file.format)} (not a CompactLab runs export)`,
    );
  }
  const version = expect<number>(file.version, 'version', 'number');
  if (version > RUN_SCHEMA_VERSION)
    throw new RunsFileError('version', `written by a newer CompactLab (version ${version})`);
  if (!Array.isArray(file.runs))
    throw new RunsFileError('runs', `expected an array, got ${describeValue(file.runs)}`);
  return file.runs.map((run, i) => readRun(run, `runs[${i}]`));
}

/** Imports runs as they are (same ids: importing twice does not duplicate). Returns how many. */
export async function importRuns(text: string, given?: RunsDatabase): Promise<number> {
  const runs = parseRunsFile(text);
  const db = given ?? (await getRunsDb());
  if (db) await db.runs.bulkPut(runs);
  else for (const run of runs) memoryRuns.set(run.id, run);
  announceRunsChanged();
  return runs.length;
}
