import { readFileSync } from 'node:fs';
import { parseArgs, readArg, UsageError } from './cli-args';
import { parseSession, readEntryText } from '../engine/parse/parse-session';
import {
  getAgentPresetId,
  getPreset,
  PROMPT_PRESETS,
  requirePreset,
} from '../engine/strategies/prompt-presets';
import { getDialectInfo } from '../engine/parse/dialects/descriptors';
import { readSummaryNote, readSummaryText } from '../engine/query/compaction-detail';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS } from '../engine/retention/types';
import { ANTHROPIC_DEFAULT_MODEL } from '../engine/summarize/anthropic';
import { BUILTIN_MODEL } from '../engine/summarize/model-ids';
import { createSummarizer, type SummarizerConfig } from '../engine/summarize/create';
import { getRecordedCallFigures, type RecordedCallFigures } from '../engine/summarize/recorded';
import { OPENAI_DEFAULT_BASE_URL } from '../engine/summarize/openai-compatible';
import { getKeepFromProblem, type PromptSettings, prepareSummary } from '../engine/summarize/prepare';
import { runSummary } from '../engine/summarize/run';
import { getCompactionSpan, parseCompactionPoint } from '../engine/summarize/span';
import { SummarizerError } from '../engine/summarize/types';
import { type KnownSecret, maskText, type RedactionSettings } from '../engine/redact/mask';
import { getPrintableUrl } from '../engine/redact/printable-url';
import { collectKnownSecrets } from '../engine/redact/session-secrets';
import { describeNoCalls, openSessionFiles } from './session-files';
import { escapeTerminalText } from './terminal-text';
import { startWaitNotice } from './wait-notice';

// `compactlab summarize`: the span a compaction would replace, the exact request, the summary,
// its tokens and its retention score. API keys come from the environment and are never printed.

export const SUMMARIZE_USAGE = `  compactlab summarize <session.jsonl> [subagent files…] --at <api-call index | c<N> | compaction uuid>
        [--preset <id> (default: the log's own agent's)] [--prompt-file <file>] [--instructions <text>] [--summarizer builtin|anthropic|openai|recorded]
        [--model <id>] [--base-url <url>] [--max-tokens <n>] [--temperature <t>] [--keep-from <api call>] [--json] [--send-unmasked]
      Summarize the span a compaction would replace at that point (after an API call, or a real
      compaction: the main thread's, or a subagent's of its own context, its span that subagent's
      log since its previous boundary) and score which facts the summary kept. A wrong --at lists
      the session's compactions. --at and --keep-from take 0-based
      indices, as in --json output: "API call 12" in text is index 11, c0 is "compaction 1".
      --keep-from goes with a partial preset (claude-code-partial): the API call of the span where
      the summarized recent portion starts, what precedes it kept verbatim (default: the span's
      middle call). Anthropic reads ANTHROPIC_API_KEY,
      openai reads OPENAI_API_KEY (optional for local servers); keys are never printed. While a
      server's answer is awaited, stderr says so (its first token, or nothing new for 5 s; plain
      lines when it is not a terminal); there is no time limit, Ctrl-C stops it.
      Secrets found in the session are masked in the request (as the page does) and in what comes
      back; --send-unmasked sends the span as it is.
      Presets: ${PROMPT_PRESETS.map((p) => p.id).join(', ')}.`;

const fmt = (n: number | undefined): string =>
  n === undefined ? '—' : Math.round(n).toLocaleString('en-US');
const pct = (ratio: number): string => `${Math.round(ratio * 100)}%`;

type Command = (args: string[], out: (text: string) => void) => Promise<number>;

function summarizerConfig(
  kind: string,
  baseUrl: string | undefined,
  recorded: () => Promise<{ continuation: string; compaction: RecordedCallFigures }>,
): Promise<SummarizerConfig> | SummarizerConfig {
  switch (kind) {
    case 'builtin':
      return { kind: 'builtin' };
    case 'anthropic': {
      const apiKey = process.env.ANTHROPIC_API_KEY;
      if (!apiKey) throw new Error('--summarizer anthropic needs ANTHROPIC_API_KEY in the environment');
      return { kind: 'anthropic', apiKey, baseUrl };
    }
    case 'openai':
      return {
        kind: 'openai',
        baseUrl: baseUrl ?? OPENAI_DEFAULT_BASE_URL,
        apiKey: process.env.OPENAI_API_KEY || undefined,
      };
    case 'recorded':
      return recorded().then((r) => ({ kind: 'recorded' as const, ...r }));
    default:
      throw new UsageError(`unknown --summarizer "${kind}" (builtin, anthropic, openai or recorded)`);
  }
}

/** The API keys the environment configures, masked wherever they appear in what is printed. */
function getConfiguredKeys(): KnownSecret[] {
  return ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'].flatMap((name) => {
    const value = process.env[name];
    return value ? [{ id: `configured-${name}`, kind: 'env-secret' as const, value }] : [];
  });
}

function number(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} expects a number, got "${value}"`);
  return n;
}

export const summarize: Command = async (args, out) => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      at: { type: 'string' },
      preset: { type: 'string' },
      'prompt-file': { type: 'string' },
      instructions: { type: 'string' },
      summarizer: { type: 'string', default: 'builtin' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'max-tokens': { type: 'string' },
      temperature: { type: 'string' },
      'keep-from': { type: 'string' },
      json: { type: 'boolean' },
      'send-unmasked': { type: 'boolean' },
    },
  });
  if (positionals.length === 0 || values.at === undefined) {
    out(`Usage:\n${SUMMARIZE_USAGE}`);
    return 2;
  }
  const sources = await openSessionFiles(positionals);
  const session = await parseSession(sources);
  if (session.apiCalls.length === 0) {
    // The reason every command gives (a UTF-16 file, an empty one), not "No API call 1".
    process.stderr.write(`compactlab summarize: ${escapeTerminalText(describeNoCalls(session))}\n`);
    return 1;
  }
  // The log's own agent's prompt unless one is named (Codex's for a Codex rollout).
  const preset = readArg(() =>
    requirePreset(values.preset ?? getAgentPresetId(getDialectInfo(session.format)?.defaultStrategyId)),
  );
  // --at names a point of this session: an API call it has (of the main conversation), a real
  // compaction; getCompactionSpan says which it is not, as a usage error.
  const point = readArg(() => {
    const named = parseCompactionPoint(session, values.at!);
    getCompactionSpan(session, named);
    return named;
  });
  const keepFrom = number(values['keep-from'], 'keep-from');
  if (keepFrom !== undefined) {
    // Only a partial compaction keeps messages (docs/sources.md#cc-prompt-2); a full one would
    // ignore the flag, and a start outside the span would keep nothing.
    if (preset.variant !== 'partial')
      throw new UsageError(
        `--keep-from goes with a partial compaction's preset (${PROMPT_PRESETS.filter(
          (p) => p.variant === 'partial',
        )
          .map((p) => p.id)
          .join(', ')}): ${preset.id} summarizes the whole span`,
      );
    const problem = getKeepFromProblem(session, point, keepFrom);
    if (problem) throw new UsageError(`--keep-from ${keepFrom}: ${problem}`);
  }
  const kind = values.summarizer ?? 'builtin';
  // Masks the request (unless --send-unmasked) and, always, what comes back: a server may echo the
  // configured key or a secret of the span (issue 22, item 5).
  const redaction: RedactionSettings = {
    unmasked: [],
    known: [...(await collectKnownSecrets(session, sources)), ...getConfiguredKeys()],
  };
  const unmask = (text: string): string => maskText(text, redaction);
  const model =
    values.model ??
    (kind === 'anthropic'
      ? ANTHROPIC_DEFAULT_MODEL
      : kind === 'openai'
        ? 'llama3.1'
        : kind === 'recorded'
          ? 'recorded'
          : BUILTIN_MODEL);
  const settings: PromptSettings = {
    presetId: preset.id,
    prompt: values['prompt-file'] ? readFileSync(values['prompt-file'], 'utf8') : preset.prompt,
    customInstructions: values.instructions ?? '',
    systemPrompt: preset.systemPrompt,
    model,
    maxOutputTokens: number(values['max-tokens'], 'max-tokens') ?? preset.maxOutputTokens,
    temperature: number(values.temperature, 'temperature'),
    keepFromApiCallIndex: keepFrom,
    ...(redaction && !values['send-unmasked'] ? { redact: redaction } : {}),
  };
  const prepared = await prepareSummary(session, sources, point, settings);
  const config = await summarizerConfig(kind, values['base-url'], async () => {
    const compaction =
      prepared.span.compactionIndex === undefined
        ? undefined
        : session.compactions[prepared.span.compactionIndex];
    if (compaction?.summaryEntryIndex === undefined)
      throw new Error('--summarizer recorded needs --at on a real compaction with a summary');
    const index = compaction.summaryEntryIndex;
    const raw = await readEntryText(sources, session, index);
    const text = readSummaryText(session, index, raw);
    if (text === undefined)
      throw new Error(
        `--summarizer recorded: the log holds no summary to read there. ${readSummaryNote(session, index, raw) ?? ''}`.trim(),
      );
    // Masked before it is measured, as the page masks it (session-ops.ts): the line said
    // "13,026 chars · 3,312 tokens (chars / 4)", the tokens of the text before masking.
    return {
      continuation: settings.redact ? maskText(text, settings.redact) : text,
      compaction: getRecordedCallFigures(compaction),
    };
  });
  const summarizer = createSummarizer(config, preset);
  let outcome: Awaited<ReturnType<typeof runSummary>>;
  // A server's call: what it waits for said on stderr (a hung server was silent); offline ones answer at once.
  const notice =
    kind === 'anthropic' || kind === 'openai'
      ? startWaitNotice('compactlab summarize: ', {
          tty: process.stderr.isTTY === true,
          write: (text) => process.stderr.write(text),
        })
      : undefined;
  try {
    outcome = await runSummary(summarizer, prepared.request, preset.output, prepared.facts, {
      onText: notice?.onText,
    });
  } catch (error) {
    notice?.end();
    if (error instanceof SummarizerError) {
      process.stderr.write(`compactlab summarize: ${escapeTerminalText(unmask(error.message))}\n`);
      return 1;
    }
    throw error;
  }
  notice?.end();
  const { result } = outcome;
  result.text = unmask(result.text);
  outcome.text = unmask(outcome.text);
  const retention = {
    ...outcome.retention,
    missed: outcome.retention.missed.map((m) => ({ ...m, text: unmask(m.text) })),
  };

  if (values.json) {
    out(
      JSON.stringify(
        {
          span: prepared.span,
          request: {
            ...prepared.request,
            estimatedTokens: prepared.estimatedTokens,
            retainedMessages: prepared.keptMessages,
          },
          summarizer: {
            kind: config.kind,
            ...(config.kind === 'anthropic' || config.kind === 'openai'
              ? { baseUrl: getPrintableUrl(config.baseUrl) }
              : {}),
          },
          summary: {
            raw: result.text,
            text: outcome.text,
            tokens: outcome.summaryTokens,
            tokensSource: outcome.summaryTokensSource,
            model: result.model,
            usage: result.usage,
            durationMs: Math.round(result.durationMs),
            costUsd: result.costUsd,
            stopReason: result.stopReason,
          },
          retention: {
            ...retention,
            matches: undefined,
            facts: prepared.facts.map((f, i) => ({ ...f, match: retention.matches[i] })),
          },
        },
        null,
        2,
      ),
    );
    return 0;
  }
  const { span, request } = prepared;
  const lines = [
    `Span: ${span.label} — entries ${span.fromEntryIndex}–${span.uptoEntryIndex}, ${request.messages.length} messages${prepared.keptMessages ? ` (${prepared.keptMessages} retained verbatim)` : ''}, context before ${fmt(span.contextTokensBefore)} tokens`,
    `Request: preset ${preset.id}${values['prompt-file'] ? ` (prompt from ${values['prompt-file']})` : ''} · system ${fmt(request.system.length)} chars · prompt ${fmt(request.prompt.length)} chars · ≈${fmt(prepared.estimatedTokens)} tokens (chars / 4)`,
    `Summarizer: ${config.kind} · model ${result.model} · ${fmt(result.durationMs)} ms · in ${fmt(result.usage.inputTokens)} / out ${fmt(result.usage.outputTokens)} tokens${result.costUsd === undefined ? '' : ` · $${result.costUsd.toFixed(4)}`}`,
    `Summary: ${fmt(outcome.text.length)} chars · ${fmt(outcome.summaryTokens)} tokens (${outcome.summaryTokensSource === 'api' ? 'API count' : 'chars / 4'})`,
    '',
    '─── summary ───',
    outcome.text,
    '',
    `─── retention: ${retention.kept}/${retention.total} facts kept (${pct(retention.ratio)}) ───`,
  ];
  for (const category of FACT_CATEGORIES) {
    const score = retention.byCategory[category];
    if (score.total)
      lines.push(
        `  ${FACT_CATEGORY_LABELS[category].padEnd(26)} ${score.kept}/${score.total} (${pct(score.ratio)})`,
      );
  }
  if (retention.missed.length) {
    lines.push('  missed:');
    for (const missed of retention.missed.slice(0, 40)) lines.push(`    ${missed.category}: ${missed.text}`);
    if (retention.missed.length > 40) lines.push(`    … ${retention.missed.length - 40} more (use --json)`);
  }
  if (!getPreset(settings.presetId)) lines.push(`(unknown preset ${settings.presetId})`);
  out(lines.join('\n'));
  return 0;
};
