import { useShallow } from 'zustand/react/shallow';
import { TabButton } from '../common/tab-button';
import { Suspense, useMemo, useState } from 'react';
import { requirePreset } from '../../engine/strategies/prompt-presets';
import { createAnthropicSummarizer } from '../../engine/summarize/anthropic';
import { formatCount } from '../common/format';
import { useKeyStore } from './key-store';
import { maskKey } from './run-controller';
import { PromptEditor, ReadOnlyViewer } from './lazy-editors';
import { useSummariesStore } from './summaries-store';
import { formatPlural } from '../../engine/query/numbering';
import { readPromptAsks } from '../../engine/prompts/prompt-asks';
import { parsePromptSections } from '../../engine/prompts/sections';
import { type ExactCount, getWireBody } from './workbench-helpers';

// The Summaries workbench's prompt column: the prompt editor, and what the built-in summarizer honours.

/** What the built-in summarizer takes from the prompt (summarize/builtin.ts): headings and shape only. */
export function BuiltinHonours({ prompt, presetId }: { prompt: string; presetId: string }) {
  const preset = requirePreset(presetId);
  const sections = useMemo(() => parsePromptSections(prompt, preset.sections), [prompt, preset]);
  const asks = useMemo(() => readPromptAsks(prompt), [prompt]);
  return (
    <div className="muted small builtin-honours" data-testid="builtin-honours">
      The built-in summarizer follows the prompt’s section headings (
      {formatPlural(sections.length, 'section')}: {sections.map((x) => x.heading).join(' · ')}), the preset’s
      output shape
      {asks.limit && <span data-testid="builtin-limit">, the length limit “{asks.limit.asked}”</span>}
      {asks.omit.length > 0 && (
        <span data-testid="builtin-omit">
          , and leaves out {asks.omit.map((o) => `“${o.asked}”`).join(', ')}
        </span>
      )}
      . It writes no new prose: it quotes and lists what the transcript holds, so the rest of the wording
      (tone, emphasis, judgement), the system prompt, the temperature and the output cap are not followed. For
      a model’s summary without an API key, run a local server and pick OpenAI-compatible with its URL:{' '}
      <code>ollama serve</code> (http://127.0.0.1:11434/v1), <code>llama-server -m model.gguf</code>{' '}
      (http://127.0.0.1:8080/v1) or <code>vllm serve &lt;model&gt;</code> (http://127.0.0.1:8000/v1).
    </div>
  );
}

export function PromptColumn(props: {
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
                (error: Error) => setExact({ request, error: maskKey(error.message, keys.anthropicKey) }),
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
