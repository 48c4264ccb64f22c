import { useShallow } from 'zustand/react/shallow';
import { TabButton } from '../common/tab-button';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { PROMPT_PRESETS, requirePreset } from '../../engine/strategies/prompt-presets';
import { createAnthropicSummarizer, toAnthropicParams } from '../../engine/summarize/anthropic';
import { BUILTIN_MODEL } from '../../engine/summarize/builtin';
import { toChatBody } from '../../engine/summarize/openai-compatible';
import type { PromptSettings } from '../../engine/summarize/prepare';
import { RECORDED_MODEL } from '../../engine/summarize/recorded';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import type { CompactionPoint } from '../../engine/summarize/span';
import { getMessagesWithPrompt, type SummaryRequest } from '../../engine/summarize/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { formatRunDuration } from './compare-view';
import { useKeyStore } from './key-store';
import { PromptEditor, ReadOnlyViewer } from './lazy-editors';
import { RetentionView } from './retention-view';
import { cancelRun, startRun, useActiveRun } from './run-controller';
import { saveExactTokensOfMatchingRuns } from './runs-db';
import { RunsSection } from './runs-table';
import {
  preparedSummaryQuery,
  RUNS_QUERY_KEY,
  summariesInfoQuery,
  summaryRunsQuery,
} from './summaries-queries';
import { type SummarizerChoice, useSummariesStore } from './summaries-store';
import { SecretInput } from './secret-input';
import { formatOrdinal, formatOrdinalTitle, formatPlural } from '../../engine/query/numbering';
import type { PresetFidelity } from '../../engine/prompts/types';
import { parsePromptSections } from '../../engine/prompts/sections';
import { useRedaction } from '../export/redaction-store';

// The Summaries view: pick a compaction point and a prompt, see the exact request, run a
// summarizer, keep every run, compare them.

/** Delay before an edited prompt rebuilds the request preview. */
const PREVIEW_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

function pointValue(point: CompactionPoint): string {
  return point.kind === 'compaction' ? `c:${point.compactionIndex}` : `a:${point.apiCallIndex}`;
}

function parsePointValue(value: string): CompactionPoint {
  const n = Number(value.slice(2));
  return value.startsWith('c:')
    ? { kind: 'compaction', compactionIndex: n }
    : { kind: 'api-call', apiCallIndex: n };
}

/** The point to use: the chosen one if this transcript has it, else its last real compaction or last call. */
function resolvePoint(info: SummariesInfo, point: CompactionPoint | undefined): CompactionPoint | undefined {
  if (
    point?.kind === 'compaction' &&
    info.compactions.some((c) => c.compactionIndex === point.compactionIndex)
  )
    return point;
  if (point?.kind === 'api-call' && info.apiCalls.some((c) => c.index === point.apiCallIndex)) return point;
  const last = info.compactions.at(-1);
  if (last) return { kind: 'compaction', compactionIndex: last.compactionIndex };
  const call = info.apiCalls.at(-1);
  return call ? { kind: 'api-call', apiCallIndex: call.index } : undefined;
}

const FIDELITY_LABELS: Record<PresetFidelity, string> = {
  verbatim: 'Verbatim',
  'verbatim-with-gaps': 'Verbatim where published, with gaps marked',
  'own-words': 'Our wording of a documented shape',
};

export function describePoint(info: SummariesInfo, point: CompactionPoint): string {
  if (point.kind === 'api-call') return `after ${formatOrdinal('api-call', point.apiCallIndex)}`;
  const c = info.compactions.find((x) => x.compactionIndex === point.compactionIndex);
  return `${formatOrdinal('compaction', point.compactionIndex)}${c ? ` (${c.trigger}) at line ${c.line}` : ''}`;
}

/** The provider's exact token count of one request (by identity), or why it failed. */
interface ExactCount {
  request: SummaryRequest;
  tokens?: number;
  error?: string;
}

function modelFor(choice: SummarizerChoice, anthropicModel: string, openaiModel: string): string {
  switch (choice) {
    case 'anthropic':
      return anthropicModel;
    case 'openai':
      return openaiModel;
    case 'recorded':
      return RECORDED_MODEL;
    default:
      return BUILTIN_MODEL;
  }
}

/** The body as it goes on the wire for the chosen summarizer. */
function getWireBody(choice: SummarizerChoice, request: SummaryRequest): unknown {
  if (choice === 'anthropic') return toAnthropicParams(request);
  if (choice === 'openai') return toChatBody(request);
  return { system: request.system, messages: getMessagesWithPrompt(request) };
}

export function SummariesPanel({ sessionId }: { sessionId: SessionId }) {
  const info = useQuery(summariesInfoQuery(sessionId));
  if (info.error)
    return <div className="pad error-text">Could not read this transcript: {info.error.message}</div>;
  if (!info.data) return <div className="pad muted">Reading the transcript…</div>;
  if (info.data.apiCalls.length === 0) {
    return (
      <div className="pad muted">
        This transcript has no API calls of the main conversation: there is nothing to summarize.
      </div>
    );
  }
  return <Workbench sessionId={sessionId} info={info.data} />;
}

function Workbench({ sessionId, info }: { sessionId: SessionId; info: SummariesInfo }) {
  const s = useSummariesStore(
    useShallow((st) => ({
      anthropicModel: st.anthropicModel,
      customInstructions: st.customInstructions,
      keepFromApiCallIndex: st.keepFromApiCallIndex,
      maxOutputTokens: st.maxOutputTokens,
      openaiModel: st.openaiModel,
      point: st.point,
      presetId: st.presetId,
      prompt: st.prompt,
      summarizer: st.summarizer,
      systemPrompt: st.systemPrompt,
      temperature: st.temperature,
    })),
  );
  const point = resolvePoint(info, s.point)!;
  const model = modelFor(s.summarizer, s.anthropicModel, s.openaiModel);
  // Secrets are masked in the request the preview shows and the summarizer gets (Secrets tab).
  const redact = useRedaction(sessionId);
  const settings: PromptSettings = useMemo(
    () => ({
      presetId: s.presetId,
      prompt: s.prompt,
      customInstructions: s.customInstructions,
      systemPrompt: s.systemPrompt,
      model,
      maxOutputTokens: s.maxOutputTokens,
      ...(s.temperature === undefined ? {} : { temperature: s.temperature }),
      ...(s.keepFromApiCallIndex === undefined ? {} : { keepFromApiCallIndex: s.keepFromApiCallIndex }),
      redact,
    }),
    [
      s.presetId,
      s.prompt,
      s.customInstructions,
      s.systemPrompt,
      model,
      s.maxOutputTokens,
      s.temperature,
      s.keepFromApiCallIndex,
      redact,
    ],
  );
  const previewSettings = useDebounced(settings, PREVIEW_DEBOUNCE_MS);
  const prepared = useQuery({
    ...preparedSummaryQuery(sessionId, point, previewSettings),
    placeholderData: keepPreviousData,
  });
  const pointLabel = describePoint(info, point);
  const queryClient = useQueryClient();
  const [exact, setExact] = useState<ExactCount>();
  const request = prepared.data?.request;
  const current = previewSettings === settings && exact?.request === request ? exact : undefined;
  const onExact = (count: ExactCount) => {
    setExact(count);
    if (count.tokens === undefined) return;
    // The request is a function of the transcript, the point and the settings: runs made from the
    // same ones sent this very request, so the count is theirs too.
    void saveExactTokensOfMatchingRuns(info.contentHash, point, previewSettings, count.tokens).then(() =>
      queryClient.invalidateQueries({ queryKey: RUNS_QUERY_KEY }),
    );
  };

  return (
    <div className="summaries-workbench">
      <SetupColumn info={info} point={point} />
      <PromptColumn
        prepared={prepared.data}
        preparing={prepared.isFetching}
        error={prepared.error?.message}
        stale={previewSettings !== settings}
        exact={exact}
        onExact={onExact}
        logPreTokens={
          point.kind === 'compaction'
            ? info.compactions.find((c) => c.compactionIndex === point.compactionIndex)?.preTokens
            : undefined
        }
      />
      <OutputColumn
        sessionId={sessionId}
        info={info}
        point={point}
        pointLabel={pointLabel}
        settings={settings}
        requestExactTokens={current?.tokens}
        recordedAvailable={
          point.kind === 'compaction' &&
          info.compactions.some((c) => c.compactionIndex === point.compactionIndex && c.hasSummary)
        }
      />
      <RunsSection contentHash={info.contentHash} />
    </div>
  );
}

function SetupColumn({ info, point }: { info: SummariesInfo; point: CompactionPoint }) {
  const s = useSummariesStore(
    useShallow((st) => ({
      anthropicBaseUrl: st.anthropicBaseUrl,
      anthropicModel: st.anthropicModel,
      choosePreset: st.choosePreset,
      customInstructions: st.customInstructions,
      edits: st.edits,
      keepFromApiCallIndex: st.keepFromApiCallIndex,
      maxOutputTokens: st.maxOutputTokens,
      openaiBaseUrl: st.openaiBaseUrl,
      openaiModel: st.openaiModel,
      presetId: st.presetId,
      prompt: st.prompt,
      resetPrompt: st.resetPrompt,
      set: st.set,
      setPoint: st.setPoint,
      summarizer: st.summarizer,
      systemPrompt: st.systemPrompt,
      temperature: st.temperature,
    })),
  );
  const keys = useKeyStore();
  const preset = requirePreset(s.presetId);
  const edited = s.prompt !== preset.prompt || s.systemPrompt !== preset.systemPrompt;
  return (
    <section className="summaries-setup" aria-label="Summary settings">
      <label className="field">
        <span>Compaction point</span>
        <select
          data-testid="point-select"
          value={pointValue(point)}
          onChange={(e) => s.setPoint(parsePointValue(e.currentTarget.value))}
        >
          {info.compactions.length > 0 && (
            <optgroup label="Real compactions in the transcript">
              {info.compactions.map((c) => (
                <option key={c.compactionIndex} value={`c:${c.compactionIndex}`}>
                  {formatOrdinalTitle('compaction', c.compactionIndex)} ({c.trigger}) · line {c.line}
                  {c.preTokens ? ` · ${formatCount(c.preTokens)} tokens` : ''}
                </option>
              ))}
            </optgroup>
          )}
          <optgroup label="After API call (what a compaction there would replace)">
            {info.apiCalls.map((c) => (
              <option key={c.index} value={`a:${c.index}`}>
                After {formatOrdinal('api-call', c.index)} · {formatCount(c.contextTokens)} tokens
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      <label className="field">
        <span>Preset</span>
        <select
          data-testid="preset-select"
          value={s.presetId}
          onChange={(e) => s.choosePreset(e.currentTarget.value)}
        >
          {PROMPT_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
              {s.edits[p.id] ? ' · edited' : ''}
            </option>
          ))}
        </select>
      </label>
      {edited && (
        <p className="small edited-mark" data-testid="prompt-edited">
          Prompt edited from the preset (kept if you pick another preset).{' '}
          <button type="button" className="btn link small" data-testid="prompt-reset" onClick={s.resetPrompt}>
            Reset to the preset
          </button>
        </p>
      )}
      <p className="muted small preset-source" data-testid="preset-source" data-fidelity={preset.fidelity}>
        <b>{FIDELITY_LABELS[preset.fidelity]}.</b> {preset.description}
      </p>
      {preset.variant === 'partial' && (
        <label className="field">
          <span>Recent portion starts at</span>
          <select
            value={s.keepFromApiCallIndex ?? ''}
            onChange={(e) =>
              s.set({
                keepFromApiCallIndex:
                  e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value),
              })
            }
          >
            <option value="">middle of the span</option>
            {info.apiCalls.map((c) => (
              <option key={c.index} value={c.index}>
                {formatOrdinalTitle('api-call', c.index)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        <span>Custom instructions (as /compact &lt;instructions&gt; or a PreCompact hook adds them)</span>
        <textarea
          data-testid="custom-instructions"
          rows={2}
          value={s.customInstructions}
          onChange={(e) => s.set({ customInstructions: e.currentTarget.value })}
        />
      </label>
      <label className="field">
        <span>System prompt</span>
        <textarea
          data-testid="system-prompt"
          rows={3}
          value={s.systemPrompt}
          onChange={(e) => s.set({ systemPrompt: e.currentTarget.value })}
        />
      </label>
      <div className="field-row">
        <label className="field">
          <span>Max output tokens</span>
          <input
            className="mono"
            inputMode="numeric"
            value={s.maxOutputTokens}
            onChange={(e) => {
              const n = Number(e.currentTarget.value);
              if (Number.isFinite(n) && n > 0) s.set({ maxOutputTokens: Math.round(n) });
            }}
          />
        </label>
        <label className="field">
          <span>Temperature</span>
          <input
            className="mono"
            inputMode="decimal"
            placeholder="default"
            value={s.temperature ?? ''}
            onChange={(e) => {
              const text = e.currentTarget.value.trim();
              const n = Number(text);
              if (text === '') s.set({ temperature: undefined });
              else if (Number.isFinite(n) && n >= 0 && n <= 2) s.set({ temperature: n });
            }}
          />
        </label>
      </div>
      <fieldset className="summarizer-choice">
        <legend>Summarizer</legend>
        {(
          [
            ['builtin', 'Built-in (offline, no LLM)'],
            ['anthropic', 'Anthropic API'],
            ['openai', 'OpenAI-compatible server'],
            ['recorded', 'Recorded (the transcript’s own)'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name="summarizer"
              data-testid={`summarizer-${value}`}
              checked={s.summarizer === value}
              onChange={() => s.set({ summarizer: value })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {s.summarizer === 'builtin' && <BuiltinHonours prompt={s.prompt} presetId={s.presetId} />}
      {s.summarizer === 'anthropic' && (
        <div className="provider">
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is SecretInput, rendered inside. */}
          <label className="field">
            <span>API key (kept in this tab’s memory)</span>
            <SecretInput testId="anthropic-key" value={keys.anthropicKey} onChange={keys.setAnthropicKey} />
          </label>
          <label className="radio">
            <input
              type="checkbox"
              data-testid="remember-key"
              checked={keys.rememberAnthropic}
              onChange={(e) => keys.setRememberAnthropic(e.currentTarget.checked)}
            />
            Remember in this browser: stored in plain text in its localStorage
          </label>
          <label className="field">
            <span>Model</span>
            <input
              className="mono"
              data-testid="anthropic-model"
              value={s.anthropicModel}
              onChange={(e) => s.set({ anthropicModel: e.currentTarget.value })}
            />
          </label>
          <label className="field">
            <span>Base URL</span>
            <input
              className="mono"
              data-testid="anthropic-base-url"
              value={s.anthropicBaseUrl}
              onChange={(e) => s.set({ anthropicBaseUrl: e.currentTarget.value })}
            />
          </label>
        </div>
      )}
      {s.summarizer === 'openai' && (
        <div className="provider">
          <label className="field">
            <span>Base URL (Ollama, llama.cpp, LM Studio, vLLM)</span>
            <input
              className="mono"
              data-testid="openai-base-url"
              value={s.openaiBaseUrl}
              onChange={(e) => s.set({ openaiBaseUrl: e.currentTarget.value })}
            />
          </label>
          <label className="field">
            <span>Model</span>
            <input
              className="mono"
              data-testid="openai-model"
              value={s.openaiModel}
              onChange={(e) => s.set({ openaiModel: e.currentTarget.value })}
            />
          </label>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is SecretInput, rendered inside. */}
          <label className="field">
            <span>API key (optional)</span>
            <SecretInput testId="openai-key" value={keys.openaiKey} onChange={keys.setOpenaiKey} />
          </label>
        </div>
      )}
    </section>
  );
}

/** What the built-in summarizer takes from the prompt (summarize/builtin.ts): headings and shape only. */
function BuiltinHonours({ prompt, presetId }: { prompt: string; presetId: string }) {
  const preset = requirePreset(presetId);
  const sections = useMemo(() => parsePromptSections(prompt, preset.sections), [prompt, preset]);
  return (
    <div className="muted small builtin-honours" data-testid="builtin-honours">
      The built-in summarizer follows the prompt’s section headings (
      {formatPlural(sections.length, 'section')}: {sections.map((x) => x.heading).join(' · ')}) and the
      preset’s output shape, and fills each from the transcript’s structure. It does not follow the rest of
      the wording, the system prompt, the temperature or the output cap.
    </div>
  );
}

function PromptColumn(props: {
  prepared: import('../../engine/summarize/session-ops').SummariesPrepared | undefined;
  preparing: boolean;
  error?: string;
  stale: boolean;
  exact: ExactCount | undefined;
  onExact: (count: ExactCount) => void;
  /** The log's own context size at this compaction (`compactMetadata.preTokens`). */
  logPreTokens?: number;
}) {
  const s = useSummariesStore(
    useShallow((st) => ({
      anthropicBaseUrl: st.anthropicBaseUrl,
      customInstructions: st.customInstructions,
      prompt: st.prompt,
      set: st.set,
      summarizer: st.summarizer,
    })),
  );
  const keys = useKeyStore();
  const [tab, setTab] = useState<'prompt' | 'request'>('prompt');
  const { exact, onExact: setExact } = props;
  const request = props.prepared?.request;
  // Serialized only when shown: a large span makes megabytes of JSON.
  const wire = useMemo(
    () => (request && tab === 'request' ? JSON.stringify(getWireBody(s.summarizer, request), null, 2) : ''),
    [request, s.summarizer, tab],
  );
  const exactForThis = exact && exact.request === request ? exact : undefined;
  return (
    <section className="summaries-prompt">
      <div className="tabs small-tabs" role="tablist">
        <TabButton selected={tab === 'prompt'} testId="tab-prompt" onSelect={() => setTab('prompt')}>
          Prompt
        </TabButton>
        <TabButton selected={tab === 'request'} testId="tab-request" onSelect={() => setTab('request')}>
          Exact request
        </TabButton>
        <span className="request-size mono small" data-testid="request-tokens">
          {props.prepared
            ? `Request: ${formatPlural(props.prepared.request.messages.length, 'message')} · ${
                exactForThis?.tokens !== undefined
                  ? `${formatCount(exactForThis.tokens)} tokens (provider's count)`
                  : `≈${formatCount(props.prepared.estimatedTokens)} tokens (chars / 4)`
              }`
            : props.error
              ? ''
              : 'building the request…'}
          {props.logPreTokens !== undefined && (
            <span className="muted" title="The context size the log recorded at this compaction (preTokens)">
              {' '}
              · the log’s preTokens {formatCount(props.logPreTokens)}
            </span>
          )}
          {(props.preparing || props.stale) && props.prepared && ' · updating…'}
        </span>
        {s.summarizer === 'anthropic' && keys.anthropicKey && request && (
          <button
            type="button"
            className="btn link small"
            data-testid="count-exact"
            onClick={() => {
              setExact({ request });
              createAnthropicSummarizer({ apiKey: keys.anthropicKey, baseUrl: s.anthropicBaseUrl })
                .countTokens!(request).then(
                (tokens) => setExact({ request, tokens }),
                (error: Error) => setExact({ request, error: error.message }),
              );
            }}
          >
            Count exactly
          </button>
        )}
      </div>
      {props.error && <div className="error-text pad small">{props.error}</div>}
      {exactForThis?.error && <div className="error-text pad small">{exactForThis.error}</div>}
      <Suspense fallback={<div className="muted pad">Loading editor…</div>}>
        {tab === 'prompt' ? (
          <PromptEditor value={s.prompt} onChange={(prompt) => s.set({ prompt })} />
        ) : (
          <ReadOnlyViewer value={wire} language="json" testId="request-preview" />
        )}
      </Suspense>
      {props.prepared && (
        <p className="muted small pad-x">
          {props.prepared.span.label}: entries {props.prepared.span.fromEntryIndex}–
          {props.prepared.span.uptoEntryIndex}
          {props.prepared.keptMessages ? `, ${props.prepared.keptMessages} messages kept verbatim` : ''} ·{' '}
          {props.prepared.facts.length} facts to keep · the prompt is sent as the last user message
          {s.customInstructions.trim() ? ', with the custom instructions' : ''}.
        </p>
      )}
    </section>
  );
}

function OutputColumn(props: {
  sessionId: SessionId;
  info: SummariesInfo;
  point: CompactionPoint;
  pointLabel: string;
  settings: PromptSettings;
  /** The provider's count of this very request, when the user asked for it. */
  requestExactTokens?: number;
  recordedAvailable: boolean;
}) {
  const queryClient = useQueryClient();
  const s = useSummariesStore(
    useShallow((st) => ({
      anthropicBaseUrl: st.anthropicBaseUrl,
      openaiBaseUrl: st.openaiBaseUrl,
      summarizer: st.summarizer,
    })),
  );
  const active = useActiveRun();
  const runs = useQuery(summaryRunsQuery());
  const run = active.runId ? runs.data?.find((r) => r.id === active.runId) : undefined;
  const busy = active.status === 'preparing' || active.status === 'running';
  const hasAnthropicKey = useKeyStore((k) => k.anthropicKey !== '');
  const cannotRun =
    (s.summarizer === 'anthropic' && !hasAnthropicKey) ||
    (s.summarizer === 'recorded' && !props.recordedAvailable);
  return (
    <section className="summaries-output">
      <div className="output-actions">
        <button
          type="button"
          className="btn primary"
          data-testid="run-summary"
          disabled={busy || cannotRun}
          title={
            cannotRun
              ? s.summarizer === 'recorded'
                ? 'Pick a real compaction'
                : 'Enter an API key'
              : undefined
          }
          onClick={() => {
            const keys = useKeyStore.getState();
            void startRun(queryClient, {
              sessionId: props.sessionId,
              info: props.info,
              point: props.point,
              pointLabel: props.pointLabel,
              settings: props.settings,
              choice: s.summarizer,
              apiKey:
                s.summarizer === 'anthropic'
                  ? keys.anthropicKey
                  : s.summarizer === 'openai'
                    ? keys.openaiKey
                    : undefined,
              baseUrl:
                s.summarizer === 'anthropic'
                  ? s.anthropicBaseUrl
                  : s.summarizer === 'openai'
                    ? s.openaiBaseUrl
                    : undefined,
              requestExactTokens: props.requestExactTokens,
            });
          }}
        >
          Run
        </button>
        <button
          type="button"
          className="btn"
          data-testid="cancel-summary"
          disabled={!busy}
          onClick={cancelRun}
        >
          Cancel
        </button>
        <span className={`run-status ${active.status}`} data-testid="run-status">
          {active.status === 'idle' && 'Ready.'}
          {active.status === 'preparing' && 'Building the request…'}
          {active.status === 'running' && `Summarizing… ${formatCount(active.text.length)} characters`}
          {active.status === 'done' && 'Done — saved as a run.'}
          {active.status === 'cancelled' && 'Cancelled.'}
          {active.status === 'error' && 'Failed.'}
        </span>
      </div>
      {active.error && (
        <div className="error-text small" data-testid="run-error" role="alert">
          {active.error}
        </div>
      )}
      <pre className="summary-stream" data-testid="summary-output">
        {active.text || (active.status === 'idle' ? 'The summary streams here.' : '')}
      </pre>
      {run && (
        <div className="run-figures small" data-testid="run-figures">
          <span>
            in <b>{formatCount(run.tokensIn)}</b> · out <b>{formatCount(run.tokensOut)}</b> tokens
          </span>
          <span>
            summary <b>{formatCount(run.summaryTokens)}</b> tokens (
            {run.summaryTokensSource === 'api' ? 'API count' : 'chars / 4'})
          </span>
          <span>{formatRunDuration(run.durationMs)}</span>
          <span>{run.costUsd === undefined ? 'cost —' : `$${run.costUsd.toFixed(4)}`}</span>
        </div>
      )}
      {run && <RetentionView retention={run.retention} />}
    </section>
  );
}
