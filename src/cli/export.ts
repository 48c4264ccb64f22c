import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { computeCompactedJsonl } from '../engine/export/compacted-jsonl';
import {
  collectLogSummaries,
  formatSummariesJson,
  formatSummariesMarkdown,
  type SummaryExportHeader,
} from '../engine/export/summary-export';
import { loadSession, runReplay, SHARE_OPTIONS } from './share-args';

// `compactlab export`: the compacted transcript (after a replay) or the summaries.

export const EXPORT_USAGE = `  compactlab export <session.jsonl> [subagent files…] --jsonl|--md|--json -o <file> [--strategy id] [--knob k=v…] [--redact]
      --jsonl: the transcript as the agent would have written it under the replay (strategy and
      knobs; default the log's own), a compact_boundary and its summary (built-in summarizer) at
      each replayed compaction: it re-opens with those compactions. --md / --json: the log's
      summaries with their retention scores. --redact masks secrets (see report).`;

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
  const { session, sources } = await loadSession(positionals);
  if (session.entries.length === 0) {
    process.stderr.write('compactlab export: nothing could be read as a transcript\n');
    return 1;
  }
  const redaction = values.redact ? { unmasked: [] } : undefined;
  let text: string;
  if (values.jsonl) {
    if (session.apiCalls.length === 0) {
      process.stderr.write('compactlab export: no API call in this transcript: nothing to replay\n');
      return 1;
    }
    const replay = runReplay(session, values.strategy, values.knob);
    text = await computeCompactedJsonl(session, sources, { events: replay.events, redaction });
  } else {
    const header: SummaryExportHeader = {
      name: session.files[0]?.name ?? 'transcript',
      agent: session.meta.agent,
      versions: session.meta.versions,
      models: session.meta.models,
    };
    const summaries = await collectLogSummaries(session, sources, { redaction });
    text = values.md
      ? formatSummariesMarkdown(header, summaries, redaction)
      : formatSummariesJson(header, summaries, redaction);
  }
  writeFileSync(target, text);
  out(`wrote ${target} (${text.length.toLocaleString('en-US')} characters)`);
  return 0;
}
