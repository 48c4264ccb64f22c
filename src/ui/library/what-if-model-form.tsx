import { useShallow } from 'zustand/react/shallow';
import { getPrintableUrl } from '../../engine/redact/printable-url';
import { formatCount as fmt } from '../common/format';
import { useKeyStore } from '../summaries/key-store';
import { SecretInput } from '../summaries/secret-input';
import { useSummariesStore } from '../summaries/summaries-store';
import type { WhatIfModelConfig } from './what-if-model';
import { clearWhatIf, useWhatIfStore } from './what-if-run';

// The what-if's choice of who writes the summaries its retention scores: the built-in summarizer
// (offline, the default), the Anthropic API or an OpenAI-compatible server as the Summaries view
// configures them (the same model, URL and key fields: one configuration), then the plan a model
// run is confirmed on and the run's calls.

export type RetentionSummarizer = 'builtin' | 'anthropic' | 'openai';

/** The configured model for a choice, or why it cannot run. */
export function useWhatIfModelConfig(choice: RetentionSummarizer): WhatIfModelConfig | string | undefined {
  const s = useSummariesStore(
    useShallow((st) => ({
      anthropicModel: st.anthropicModel,
      anthropicBaseUrl: st.anthropicBaseUrl,
      openaiModel: st.openaiModel,
      openaiBaseUrl: st.openaiBaseUrl,
    })),
  );
  const keys = useKeyStore(useShallow((k) => ({ anthropicKey: k.anthropicKey, openaiKey: k.openaiKey })));
  if (choice === 'builtin') return undefined;
  if (choice === 'anthropic') {
    if (!keys.anthropicKey) return 'The Anthropic API needs a key.';
    return {
      kind: 'anthropic',
      model: s.anthropicModel,
      baseUrl: s.anthropicBaseUrl,
      apiKey: keys.anthropicKey,
    };
  }
  if (!s.openaiModel.trim()) return 'The server needs a model name.';
  return {
    kind: 'openai',
    model: s.openaiModel,
    baseUrl: s.openaiBaseUrl,
    apiKey: keys.openaiKey || undefined,
  };
}

export function WhatIfModelChoice({
  choice,
  onChoose,
  disabled,
}: {
  choice: RetentionSummarizer;
  onChoose: (choice: RetentionSummarizer) => void;
  disabled: boolean;
}) {
  const s = useSummariesStore();
  const keys = useKeyStore();
  return (
    <>
      <label title="Who writes each compaction's summary that the retention scores: the built-in summarizer (offline, free), or a model from the request the compaction would send (calls, time, money)">
        summarized by{' '}
        <select
          value={choice}
          onChange={(e) => onChoose(e.currentTarget.value as RetentionSummarizer)}
          disabled={disabled}
          data-testid="whatif-summarizer"
        >
          <option value="builtin">built-in (offline)</option>
          <option value="anthropic">Anthropic API</option>
          <option value="openai">OpenAI-compatible server</option>
        </select>
      </label>
      {choice === 'anthropic' && (
        <>
          <label>
            model{' '}
            <input
              className="whatif-model"
              value={s.anthropicModel}
              onChange={(e) => s.set({ anthropicModel: e.currentTarget.value })}
              disabled={disabled}
              data-testid="whatif-model"
            />
          </label>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is SecretInput, rendered inside. */}
          <label>
            API key{' '}
            <SecretInput
              testId="whatif-anthropic-key"
              value={keys.anthropicKey}
              onChange={keys.setAnthropicKey}
            />
          </label>
        </>
      )}
      {choice === 'openai' && (
        <>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is SecretInput, rendered inside. */}
          <label>
            server{' '}
            <SecretInput
              type="text"
              className="mono whatif-url"
              testId="whatif-base-url"
              value={s.openaiBaseUrl}
              onChange={(v) => s.set({ openaiBaseUrl: v })}
            />
          </label>
          <label>
            model{' '}
            <input
              className="whatif-model"
              value={s.openaiModel}
              onChange={(e) => s.set({ openaiModel: e.currentTarget.value })}
              disabled={disabled}
              data-testid="whatif-model"
            />
          </label>
        </>
      )}
    </>
  );
}

/** Before a model run: how many calls it makes and what they cost; the user confirms or goes back. */
export function WhatIfPlanNotice({ config, onRun }: { config: WhatIfModelConfig; onRun: () => void }) {
  const plan = useWhatIfStore((s) => s.plan);
  if (!plan) return null;
  const where =
    config.kind === 'anthropic' ? 'the Anthropic API' : `the server at ${getPrintableUrl(config.baseUrl)}`;
  const usd =
    plan.inputUsd === undefined
      ? `no list price for ${config.model}`
      : `≈ $${plan.inputUsd.toFixed(plan.inputUsd < 1 ? 4 : 2)} of input at ${config.model}'s list price`;
  return (
    <div className="whatif-plan" data-testid="whatif-plan" data-calls={plan.calls} data-cached={plan.cached}>
      <p>
        {plan.calls === 0
          ? `No call to make: the ${fmt(plan.cached)} summaries are in the cache.`
          : `${fmt(plan.calls)} summary ${plan.calls === 1 ? 'call' : 'calls'} to ${config.model} on ${where}: ≈ ${fmt(plan.inputTokens)} input tokens (${usd}), output up to ${fmt(plan.maxOutputTokens)} tokens.`}
        {plan.calls > 0 &&
          plan.cached > 0 &&
          ` ${fmt(plan.cached)} more from the cache or the same request’s call.`}
      </p>
      <button type="button" className="btn primary" onClick={onRun} data-testid="whatif-confirm">
        {plan.calls === 0 ? 'Score them' : `Make ${fmt(plan.calls)} ${plan.calls === 1 ? 'call' : 'calls'}`}
      </button>{' '}
      <button type="button" className="btn" onClick={clearWhatIf} data-testid="whatif-plan-back">
        Back
      </button>
    </div>
  );
}

/** A model run's calls: made, from the cache, failed (each named), the one in flight. */
export function WhatIfCallsStatus() {
  const calls = useWhatIfStore((s) => s.calls);
  const status = useWhatIfStore((s) => s.status);
  if (!calls) return null;
  return (
    <div
      className="whatif-calls"
      data-testid="whatif-calls"
      data-made={calls.made}
      data-cached={calls.cached}
      data-failed={calls.failed.length}
    >
      <span>
        {calls.model}: {fmt(calls.made)} {calls.made === 1 ? 'call' : 'calls'} made, {fmt(calls.cached)} from
        the cache{calls.failed.length > 0 ? `, ${fmt(calls.failed.length)} failed (not scored)` : ''}
        {status === 'running' && calls.current ? ` · now ${calls.current}` : ''}
      </span>
      {calls.failed.length > 0 && (
        <ul className="whatif-failures" data-testid="whatif-failures">
          {calls.failed.map((f) => (
            <li key={`${f.file}\u0000${f.setting}\u0000${f.label}`}>
              {f.file} · {f.setting} · {f.label}: {f.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
