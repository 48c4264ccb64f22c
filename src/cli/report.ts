import { parseArgs } from './cli-args';
import { writeOutputFile } from './output-file';
import { computeReportHtml } from '../engine/export/report-html';
import { checkRedacted, getCliRedaction } from './export';
import { describeNothingRead } from './session-files';
import { loadSession, runReplay, SHARE_OPTIONS } from './share-args';
import { escapeTerminalText } from './terminal-text';

// `compactlab report`: the one-file HTML report, as the app's Export menu writes it.

export const REPORT_USAGE = `  compactlab report <session.jsonl> [subagent files…] -o report.html [--strategy id] [--knob k=v…] [--redact]
      Write the one-file HTML report (header, timeline picture, compactions, their summaries with
      retention scores, the replay's events). It loads nothing from outside the file.
      --redact masks API keys, tokens, passwords, private keys, JWTs, emails and home paths.`;

type Out = (text: string) => void;

export async function reportCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: SHARE_OPTIONS });
  const target = values.o ?? values.output;
  if (positionals.length === 0 || !target) {
    out(`Usage:\n${REPORT_USAGE}`);
    return 2;
  }
  const { session, sources } = await loadSession(positionals);
  if (session.entries.length === 0) {
    process.stderr.write(`compactlab report: ${escapeTerminalText(describeNothingRead(session))}\n`);
    return 1;
  }
  const replay = session.apiCalls.length > 0 ? runReplay(session, values.strategy, values.knob) : undefined;
  const redaction = values.redact ? await getCliRedaction(session, sources) : undefined;
  const html = await computeReportHtml(session, sources, { replay, redaction });
  if (redaction && !checkRedacted('report', html, redaction)) return 1;
  await writeOutputFile(target, [html]);
  out(`wrote ${target} (${html.length.toLocaleString('en-US')} characters)`);
  return 0;
}
