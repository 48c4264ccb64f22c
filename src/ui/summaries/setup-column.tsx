import { BuiltinHonours } from './prompt-column';
import { useShallow } from 'zustand/react/shallow';
import { PROMPT_PRESETS, requirePreset } from '../../engine/strategies/prompt-presets';
import { getPrintableUrl, hasUrlCredentials } from '../../engine/redact/printable-url';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import type { CompactionPoint } from '../../engine/summarize/span';
import { formatCount, formatTokensShort } from '../common/format';
import { useKeyStore } from './key-store';
import { useSummariesStore } from './summaries-store';
import { SecretInput } from './secret-input';
import { formatOrdinal, formatOrdinalTitle } from '../../engine/query/numbering';
import { markHiddenChars } from '../common/visible-text';
import { FIDELITY_LABELS, getSubagentLabel, parsePointValue, pointValue } from './workbench-helpers';

// The Summaries workbench's first column: the point, the prompt preset and the summarizer.

export function SetupColumn({
  info,
  point,
  recentStartCalls,
}: {
  info: SummariesInfo;
  point: CompactionPoint;
  /** The span's calls a partial preset's recent portion can start at (the prepared request's). */
  recentStartCalls?: readonly number[];
}) {
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
    <section className="summaries-setup" aria-label="Summary settings" data-testid="summaries-setup">
      <label className="field">
        <span>Compaction point</span>
        <select
          data-testid="point-select"
          value={pointValue(point)}
          onChange={(e) => s.setPoint(parsePointValue(e.currentTarget.value))}
        >
          {/* Short enough to show whole at 1280 (it was cut: "… · line 454 · 212,7…"): the
              tokens in the short form; the exact figures in the option's title. */}
          {info.compactions.length > 0 && (
            <optgroup label="Real compactions in the transcript (line · tokens before)">
              {info.compactions.map((c) => (
                <option
                  key={c.compactionIndex}
                  value={`c:${c.compactionIndex}`}
                  title={`Line ${formatCount(c.line)}${c.preTokens ? ` · ${formatCount(c.preTokens)} tokens before it` : ''}`}
                >
                  {formatOrdinalTitle('compaction', c.compactionIndex)} ({c.trigger}) · line{' '}
                  {formatCount(c.line)}
                  {c.preTokens ? ` · ${formatTokensShort(c.preTokens)}` : ''}
                </option>
              ))}
            </optgroup>
          )}
          {/* A subagent's compactions, of its own context: named by the subagent (its type and id,
              the Task call's description in the group's label), numbered and lined in its log. */}
          {getSubagentGroups(info).map(({ key, subagent, compactions }) => (
            <optgroup
              key={key}
              label={markHiddenChars(
                `Subagent ${getSubagentLabel(subagent)}${subagent.description ? `: ${subagent.description}` : ''} (its own log)`,
              )}
            >
              {compactions.map((c) => (
                <option
                  key={c.compactionIndex}
                  value={`c:${c.compactionIndex}`}
                  title={markHiddenChars(
                    `Subagent ${getSubagentLabel(subagent)}${subagent.description ? ` (${subagent.description})` : ''}: ${formatOrdinal('compaction', c.index, c.total)} (${c.trigger}) at line ${formatCount(c.line)} of its log${c.preTokens ? ` · ${formatCount(c.preTokens)} tokens before it` : ''}`,
                  )}
                >
                  {getSubagentOptionText(c)}
                </option>
              ))}
            </optgroup>
          ))}
          <optgroup label="After API call (what a compaction there would replace)">
            {info.apiCalls.map((c) => (
              <option key={c.index} value={`a:${c.index}`}>
                After {formatOrdinal('api-call', c.index)} · {formatTokensShort(c.contextTokens)} tokens
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
          onChange={(e) => {
            s.choosePreset(e.currentTarget.value);
            useSummariesStore.setState({ presetPicked: true });
          }}
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
            data-testid="keep-from-select"
            value={s.keepFromApiCallIndex ?? ''}
            onChange={(e) =>
              s.set({
                keepFromApiCallIndex:
                  e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value),
              })
            }
          >
            <option value="">middle of the span</option>
            {getRecentStartChoices(recentStartCalls, s.keepFromApiCallIndex).map(({ index, outside }) => (
              <option key={index} value={index}>
                {formatOrdinalTitle('api-call', index)}
                {outside ? ' (not in this span)' : ''}
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
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is BaseUrlInput, rendered inside. */}
          <label className="field">
            <span>Base URL</span>
            <BaseUrlInput
              testId="anthropic-base-url"
              value={s.anthropicBaseUrl}
              onChange={(anthropicBaseUrl) => s.set({ anthropicBaseUrl })}
            />
          </label>
        </div>
      )}
      {s.summarizer === 'openai' && (
        <div className="provider">
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is BaseUrlInput, rendered inside. */}
          <label className="field">
            <span>Base URL (Ollama, llama.cpp, LM Studio, vLLM)</span>
            <BaseUrlInput
              testId="openai-base-url"
              value={s.openaiBaseUrl}
              onChange={(openaiBaseUrl) => s.set({ openaiBaseUrl })}
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

/** A type shown whole up to this many characters in an option (ours: "general-purpose" is 15). */
const OPTION_TYPE_CHARS = 15;

/**
 * A subagent compaction's option, short enough to show whole in the box at 1280 (its type, its
 * id's first 7 characters, its place in its log, the tokens before it: "Explore a6f4214 · 3 of 3 ·
 * 180.2k"; the whole id, description, trigger and line are in the group's label and the title).
 */
function getSubagentOptionText(c: SummariesInfo['subagentCompactions'][number]): string {
  const type = c.subagent.type ?? 'Subagent';
  const shortType = type.length > OPTION_TYPE_CHARS ? `${type.slice(0, OPTION_TYPE_CHARS - 1)}…` : type;
  const tokens = c.preTokens ? ` · ${formatTokensShort(c.preTokens)}` : '';
  return markHiddenChars(`${shortType} ${c.subagent.id.slice(0, 7)} · ${c.index + 1} of ${c.total}${tokens}`);
}

/** The subagents' compactions grouped by subagent, in the order their logs were read. */
function getSubagentGroups(info: SummariesInfo): {
  key: string;
  subagent: SummariesInfo['subagentCompactions'][number]['subagent'];
  compactions: SummariesInfo['subagentCompactions'];
}[] {
  const groups = new Map<string, ReturnType<typeof getSubagentGroups>[number]>();
  for (const c of info.subagentCompactions) {
    const group = groups.get(c.subagent.id) ?? { key: c.subagent.id, subagent: c.subagent, compactions: [] };
    group.compactions.push(c);
    groups.set(c.subagent.id, group);
  }
  return [...groups.values()];
}

/**
 * A base URL field: its value never reaches a DOM attribute, and when it holds credentials or a
 * query string (either may be a key) the note shows the URL as runs and messages will show it.
 */
function BaseUrlInput(props: { value: string; onChange: (value: string) => void; testId: string }) {
  return (
    <>
      <SecretInput type="text" className="mono" {...props} />
      {hasUrlCredentials(props.value) && (
        <span className="muted small" data-testid={`${props.testId}-shown`}>
          Credentials and query string are sent, never shown or stored: runs and messages say{' '}
          {getPrintableUrl(props.value)}
        </span>
      )}
    </>
  );
}

/**
 * The recent portion's choices: the span's calls that leave some of it before them (a call out of
 * the span summarized the whole span under a prompt saying earlier messages were kept). A choice
 * made at another point stays listed, marked, until changed: the preview says why it is refused.
 */
function getRecentStartChoices(
  calls: readonly number[] | undefined,
  chosen: number | undefined,
): { index: number; outside: boolean }[] {
  const out = (calls ?? []).map((index) => ({ index, outside: false }));
  if (chosen !== undefined && !calls?.includes(chosen))
    out.push({ index: chosen, outside: calls !== undefined });
  return out;
}
