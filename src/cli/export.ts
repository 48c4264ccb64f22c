import { parseArgs, UsageError } from './cli-args';
import { computeCompactedJsonlLines, generateCompactedJsonlLines } from '../engine/export/compacted-jsonl';
import { writeOutputFile } from './output-file';
import { describeReplayedStrategy } from '../engine/export/strategy-name';
import {
  collectLogSummaries,
  formatSummariesJson,
  formatSummariesMarkdown,
  type SummaryExportHeader,
} from '../engine/export/summary-export';
import { getRedactionRefusal, type RedactionSettings } from '../engine/redact/mask';
import { collectKnownSecrets } from '../engine/redact/session-secrets';
import { getShownMainFile } from '../engine/parse/other-sessions';
import type { ByteSource } from '../engine/parse/source';
import type { Session } from '../engine/types';
import { describeNoCalls, describeNothingRead } from './session-files';
import { loadSession, runReplay, SHARE_OPTIONS } from './share-args';
import { escapeTerminalText } from './terminal-text';

// `compactlab export`: the compacted transcript (after a replay) or the summaries.

export const EXPORT_USAGE = `  compactlab export <session.jsonl> [subagent files…] --jsonl|--md|--json -o <file> [--strategy id] [--knob k=v…] [--redact]
      --jsonl: the transcript as the agent would have written it under the replay (strategy and
      knobs; default the log's own), a compact_boundary and its summary (built-in summarizer) at
      each replayed compaction: it re-opens with those compactions. --md / --json: the log's
      summaries with their retention scores, the main thread's first, then each subagent's own
      (under its heading in --md, with a thread field in --json), numbered in its log as the
      page's compaction card numbers it. --redact masks secrets (see report).`;

type Out = (text: string) => void;

export async function exportCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...SHARE_OPTIONS,
      jsonl: { type: 'boolean' },
      md: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const target = values.o ?? values.output;
  const formats = [values.jsonl && 'jsonl', values.md && 'md', values.json && 'json'].filter(Boolean);
  if (positionals.length === 0 || !target || formats.length !== 1) {
    out(`Usage:\n${EXPORT_USAGE}${formats.length > 1 ? '\n(one of --jsonl, --md, --json)' : ''}`);
    return 2;
  }
  // The summaries are the log's own: a replay's strategy or knobs would change nothing in them.
  if (!values.jsonl && (values.strategy !== undefined || (values.knob?.length ?? 0) > 0))
    throw new UsageError(
      `--strategy and --knob shape --jsonl only (--${values.md ? 'md' : 'json'} writes the log's own summaries)`,
    );
  const { session, sources } = await loadSession(positionals);
  if (session.entries.length === 0) {
    process.stderr.write(`compactlab export: ${escapeTerminalText(describeNothingRead(session))}\n`);
    return 1;
  }
  const redaction = values.redact ? await getCliRedaction(session, sources) : undefined;
  let text: string;
  if (values.jsonl) {
    if (session.apiCalls.length === 0) {
      process.stderr.write(`compactlab export: ${escapeTerminalText(describeNoCalls(session))}\n`);
      return 1;
    }
    const replay = runReplay(session, values.strategy, values.knob);
    const options = {
      events: replay.events,
      strategy: describeReplayedStrategy(replay.strategyId),
      redaction,
    };
    if (!redaction) {
      // Line by line into the file: a 100 MB log's export held its transcript whole twice (its
      // lines, then their join), 991 MB at its peak.
      const lines = generateCompactedJsonlLines(session, sources, options);
      const written = await writeOutputFile(target, withNewlines(lines));
      out(`wrote ${target} (${written.toLocaleString('en-US')} characters)`);
      return 0;
    }
    // Redacted: the whole output scanned once more before it is written (checkRedacted), its
    // lines held but never joined (a 1 GB log's transcript is past the longest string).
    const lines = await computeCompactedJsonlLines(session, sources, options);
    if (!checkRedacted('export', lines, redaction)) return 1;
    const written = await writeOutputFile(target, withNewlines(lines));
    out(`wrote ${target} (${written.toLocaleString('en-US')} characters)`);
    return 0;
  } else {
    const header: SummaryExportHeader = {
      name: getShownMainFile(session)?.name ?? 'transcript',
      agent: session.meta.agent,
      versions: session.meta.versions,
      models: session.meta.models,
      ...(session.meta.setModels ? { setModels: session.meta.setModels } : {}),
    };
    const summaries = await collectLogSummaries(session, sources, { redaction, subagents: true });
    text = values.md
      ? formatSummariesMarkdown(header, summaries, redaction)
      : formatSummariesJson(header, summaries, redaction);
  }
  if (redaction && !checkRedacted('export', text, redaction)) return 1;
  await writeOutputFile(target, [text]);
  out(`wrote ${target} (${text.length.toLocaleString('en-US')} characters)`);
  return 0;
}

async function* withNewlines(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  for await (const line of lines) yield `${line}\n`;
}

/** `--redact`: the session's found values too, so every occurrence of each is masked. */
export async function getCliRedaction(session: Session, sources: ByteSource[]): Promise<RedactionSettings> {
  return { unmasked: [], known: await collectKnownSecrets(session, sources) };
}

/**
 * Scans a redacted output once more before it is written: a found secret that survived stops the
 * command, naming the rule and the line (never the value).
 */
export function checkRedacted(
  command: string,
  output: string | readonly string[],
  redaction: RedactionSettings,
): boolean {
  const refusal = getRedactionRefusal(output, redaction);
  if (!refusal) return true;
  process.stderr.write(`compactlab ${command}: refusing to write: ${refusal}\n`);
  return false;
}
