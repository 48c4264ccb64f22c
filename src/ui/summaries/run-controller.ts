import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import type { RedactionSettings } from '../../engine/redact/mask';
import { getPrintableUrl } from '../../engine/redact/printable-url';
import { getPreset } from '../../engine/strategies/prompt-presets';
import { BUILTIN_MODEL, RECORDED_MODEL } from '../../engine/summarize/model-ids';
import type { SummarizerConfig } from '../../engine/summarize/create';
import type { PromptSettings } from '../../engine/summarize/prepare';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import type { CompactionPoint } from '../../engine/summarize/span';
import { SummarizerError } from '../../engine/summarize/types';
import { getEngineClient } from '../../worker/engine-client';
import type { SessionId } from '../../worker/protocol';
import { RUN_SCHEMA_VERSION, type SummaryRun, saveRun } from './runs-db';
import { preparedSummaryQuery, RUNS_QUERY_KEY } from './summaries-queries';
import type { SummarizerChoice } from './summaries-store';

// Runs one summarization from the UI: the worker builds the exact request, the summarizer runs
// on the main thread (streaming into `useActiveRun`), the finished run is stored.

type RunStatus = 'idle' | 'preparing' | 'running' | 'done' | 'error' | 'cancelled';

interface ActiveRun {
  status: RunStatus;
  /** The answer so far, as streamed. */
  text: string;
  error?: string;
  runId?: string;
  summarizer?: SummarizerChoice;
  /** When the request went out (`performance.now()`), for the wait the status line counts. */
  sentAt?: number;
  /** When the last piece of the answer came (`performance.now()`). */
  textAt?: number;
}

export const useActiveRun = create<ActiveRun>()(() => ({ status: 'idle', text: '' }));

let controller: AbortController | undefined;

interface RunInput {
  sessionId: SessionId;
  info: SummariesInfo;
  point: CompactionPoint;
  pointLabel: string;
  settings: PromptSettings;
  choice: SummarizerChoice;
  /** Held in memory by the caller; used for the call and then dropped. */
  apiKey?: string;
  baseUrl?: string;
  requestExactTokens?: number;
}

function createId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `run-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

const KEY_ID = 'configured-api-key';

/** The configured key masked (a plain search: cheap enough for every streamed piece). */
export function maskKey(text: string, apiKey: string | undefined): string {
  return apiKey ? text.split(apiKey).join('[REDACTED:env-secret]') : text;
}

/**
 * What came back from a summarizer (the summary, an error, the model's name), as the page may show
 * and store it: the configured key masked here (it never goes to the worker), then every secret the
 * session's scan found, by the worker that holds their values (issue 22). Should the worker not
 * answer (the session was closed), the rules alone mask it.
 */
async function maskReturned(input: RunInput, texts: string[]): Promise<string[]> {
  // The secrets' rules load with the first run's answer, not with the page.
  const { maskText, withKnownValues } = await import('../../engine/redact/mask');
  const redaction: RedactionSettings = input.settings.redact ?? { unmasked: [] };
  const local = withKnownValues(redaction, input.apiKey ? [{ id: KEY_ID, value: input.apiKey }] : []);
  const keyMasked = texts.map((t) => maskText(maskKey(t, input.apiKey), local));
  try {
    return await getEngineClient().request({
      kind: 'redact-texts',
      sessionId: input.sessionId,
      texts: keyMasked,
      redaction,
    });
  } catch {
    return keyMasked;
  }
}

/** Starts a run (cancelling one in progress). Resolves when it is stored, failed or cancelled. */
export async function startRun(queryClient: QueryClient, input: RunInput): Promise<void> {
  controller?.abort();
  const abort = new AbortController();
  controller = abort;
  const set = (patch: Partial<ActiveRun>) => {
    if (controller === abort) useActiveRun.setState(patch);
  };
  set({ status: 'preparing', text: '', error: undefined, runId: undefined, summarizer: input.choice });
  try {
    const preset = getPreset(input.settings.presetId);
    if (!preset) throw new Error(`Unknown preset ${input.settings.presetId}`);
    const prepared = await queryClient.fetchQuery(
      preparedSummaryQuery(input.sessionId, input.point, input.settings),
    );
    abort.signal.throwIfAborted();
    let config: SummarizerConfig;
    switch (input.choice) {
      case 'builtin':
        config = { kind: 'builtin' };
        break;
      case 'anthropic':
        if (!input.apiKey) throw new SummarizerError('auth', 'Enter an Anthropic API key first.');
        config = { kind: 'anthropic', apiKey: input.apiKey, baseUrl: input.baseUrl };
        break;
      case 'openai':
        config = { kind: 'openai', baseUrl: input.baseUrl, apiKey: input.apiKey || undefined };
        break;
      case 'recorded':
        if (!prepared.recordedContinuation) {
          throw new SummarizerError(
            'bad-request',
            'There is no recorded summary here: pick a real compaction as the point.',
          );
        }
        // The log's own figures of that call (it read preTokens): the run said "in 0", "0 ms".
        config = {
          kind: 'recorded',
          continuation: prepared.recordedContinuation,
          compaction: prepared.recordedFigures,
        };
        break;
    }
    // The summarizers and the scoring load with the first run, not with the page.
    const [{ createSummarizer }, { runSummary }] = await Promise.all([
      import('../../engine/summarize/create'),
      import('../../engine/summarize/run'),
    ]);
    abort.signal.throwIfAborted();
    const summarizer = createSummarizer(config, preset);
    set({ status: 'running', sentAt: performance.now() });
    let text = '';
    const outcome = await runSummary(summarizer, prepared.request, preset.output, prepared.facts, {
      signal: abort.signal,
      onText: (delta) => {
        text += delta;
        set({ text: maskKey(text, input.apiKey), textAt: performance.now() });
      },
    });
    const { result } = outcome;
    const { matches: _matches, ...retention } = outcome.retention;
    const rawModel =
      input.choice === 'builtin'
        ? BUILTIN_MODEL
        : input.choice === 'recorded'
          ? RECORDED_MODEL
          : result.model || input.settings.model;
    // Stored (IndexedDB, runs.json) and shown masked: a server may echo the key or a secret.
    const { prompt, customInstructions, systemPrompt } = input.settings;
    const missed = retention.missed.map((m) => m.text);
    const [
      summary,
      rawSummary,
      model,
      transcriptName,
      pointLabel,
      maskedPrompt,
      maskedInstructions,
      maskedSystem,
      ...maskedMissed
    ] = await maskReturned(input, [
      outcome.text,
      result.text,
      rawModel,
      input.info.name.split('/').pop() ?? input.info.name,
      input.pointLabel,
      prompt,
      customInstructions,
      systemPrompt,
      ...missed,
    ]);
    abort.signal.throwIfAborted();
    const settings = {
      ...input.settings,
      prompt: maskedPrompt!,
      customInstructions: maskedInstructions!,
      systemPrompt: maskedSystem!,
    };
    const run: SummaryRun = {
      id: createId(),
      schemaVersion: RUN_SCHEMA_VERSION,
      createdAt: Date.now(),
      name: `${preset.id} · ${model} · ${pointLabel}`,
      starred: false,
      transcript: {
        contentHash: input.info.contentHash,
        name: transcriptName!,
      },
      point: { ...input.point, label: pointLabel! },
      settings,
      summarizer: {
        kind: input.choice,
        model: model!,
        ...(input.choice === 'anthropic' || input.choice === 'openai'
          ? { baseUrl: getPrintableUrl(input.baseUrl) }
          : {}),
      },
      summary: summary!,
      rawSummary: rawSummary!,
      tokensIn: result.usage.inputTokens,
      tokensOut: result.usage.outputTokens,
      summaryTokens: outcome.summaryTokens,
      summaryTokensSource: outcome.summaryTokensSource,
      requestEstimatedTokens: prepared.estimatedTokens,
      ...(input.requestExactTokens === undefined ? {} : { requestExactTokens: input.requestExactTokens }),
      durationMs: Math.round(result.durationMs),
      ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
      ...(result.stopReason === undefined ? {} : { stopReason: result.stopReason }),
      retention: { ...retention, missed: retention.missed.map((m, i) => ({ ...m, text: maskedMissed[i]! })) },
    };
    await saveRun(run);
    await queryClient.invalidateQueries({ queryKey: RUNS_QUERY_KEY });
    set({ status: 'done', text: rawSummary, runId: run.id });
  } catch (error) {
    const cancelled =
      abort.signal.aborted || (error instanceof SummarizerError && error.code === 'cancelled');
    if (cancelled) set({ status: 'cancelled' });
    else {
      const [message] = await maskReturned(input, [error instanceof Error ? error.message : String(error)]);
      set({ status: 'error', error: message });
    }
  } finally {
    if (controller === abort) controller = undefined;
  }
}

/** Cancels the run in progress, if any. */
export function cancelRun(): void {
  controller?.abort();
}
