import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { getPreset } from '../../engine/strategies/prompt-presets';
import { BUILTIN_MODEL } from '../../engine/summarize/builtin';
import type { SummarizerConfig } from '../../engine/summarize/create';
import type { PromptSettings } from '../../engine/summarize/prepare';
import { RECORDED_MODEL } from '../../engine/summarize/recorded';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import type { CompactionPoint } from '../../engine/summarize/span';
import { SummarizerError } from '../../engine/summarize/types';
import type { SessionId } from '../../worker/protocol';
import { RUN_SCHEMA_VERSION, type SummaryRun, saveRun } from './runs-db';
import { preparedSummaryQuery, RUNS_QUERY_KEY } from './summaries-queries';
import type { SummarizerChoice } from './summaries-store';

// Runs one summarization from the UI: the worker builds the exact request, the summarizer runs
// on the main thread (streaming into `useActiveRun`), the finished run is stored.

export type RunStatus = 'idle' | 'preparing' | 'running' | 'done' | 'error' | 'cancelled';

export interface ActiveRun {
  status: RunStatus;
  /** The answer so far, as streamed. */
  text: string;
  error?: string;
  runId?: string;
  summarizer?: SummarizerChoice;
}

export const useActiveRun = create<ActiveRun>()(() => ({ status: 'idle', text: '' }));

let controller: AbortController | undefined;

export interface RunInput {
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
        config = { kind: 'recorded', continuation: prepared.recordedContinuation };
        break;
    }
    // The summarizers and the scoring load with the first run, not with the page.
    const [{ createSummarizer }, { runSummary }] = await Promise.all([
      import('../../engine/summarize/create'),
      import('../../engine/summarize/run'),
    ]);
    abort.signal.throwIfAborted();
    const summarizer = createSummarizer(config, preset);
    set({ status: 'running' });
    let text = '';
    const outcome = await runSummary(summarizer, prepared.request, preset.output, prepared.facts, {
      signal: abort.signal,
      onText: (delta) => {
        text += delta;
        set({ text });
      },
    });
    const { result } = outcome;
    const { matches: _matches, ...retention } = outcome.retention;
    const model =
      input.choice === 'builtin'
        ? BUILTIN_MODEL
        : input.choice === 'recorded'
          ? RECORDED_MODEL
          : result.model || input.settings.model;
    const run: SummaryRun = {
      id: createId(),
      schemaVersion: RUN_SCHEMA_VERSION,
      createdAt: Date.now(),
      name: `${preset.id} · ${model} · ${input.pointLabel}`,
      starred: false,
      transcript: {
        contentHash: input.info.contentHash,
        name: input.info.name.split('/').pop() ?? input.info.name,
      },
      point: { ...input.point, label: input.pointLabel },
      settings: input.settings,
      summarizer: {
        kind: input.choice,
        model,
        ...(input.choice === 'anthropic' || input.choice === 'openai' ? { baseUrl: input.baseUrl } : {}),
      },
      summary: outcome.text,
      rawSummary: result.text,
      tokensIn: result.usage.inputTokens,
      tokensOut: result.usage.outputTokens,
      summaryTokens: outcome.summaryTokens,
      summaryTokensSource: outcome.summaryTokensSource,
      requestEstimatedTokens: prepared.estimatedTokens,
      ...(input.requestExactTokens === undefined ? {} : { requestExactTokens: input.requestExactTokens }),
      durationMs: Math.round(result.durationMs),
      ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
      ...(result.stopReason === undefined ? {} : { stopReason: result.stopReason }),
      retention,
    };
    await saveRun(run);
    await queryClient.invalidateQueries({ queryKey: RUNS_QUERY_KEY });
    set({ status: 'done', text: result.text, runId: run.id });
  } catch (error) {
    const cancelled =
      abort.signal.aborted || (error instanceof SummarizerError && error.code === 'cancelled');
    set(
      cancelled
        ? { status: 'cancelled' }
        : { status: 'error', error: error instanceof Error ? error.message : String(error) },
    );
  } finally {
    if (controller === abort) controller = undefined;
  }
}

/** Cancels the run in progress, if any. */
export function cancelRun(): void {
  controller?.abort();
}
