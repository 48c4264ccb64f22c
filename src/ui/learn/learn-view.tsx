import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LearnCompaction, LearnStep } from '../../engine/learn/types';
import { DEFAULT_STRATEGY_ID, STRATEGY_DESCRIPTORS } from '../../engine/strategies/descriptors';
import type { SessionId } from '../../worker/protocol';
import { useEscapeLayer } from '../common/use-escape';
import { usePageCustomStrategies } from '../custom/custom-registry';
import { UnloadedStrategyNotice } from '../custom/unloaded-notice';
import { useReplayStore } from '../replay/replay-store';
import { VisibleText } from '../common/visible-text';
import { useBranchStore } from '../timeline/branch-store';
import { LearnBarChart } from './learn-bar';
import { LearnConstants } from './learn-constants';
import { learnWalkQuery } from './learn-queries';
import { useLearnStore } from './learn-store';
import './learn.css';

// Learn mode: one compaction of the loaded transcript, a step at a time (engine/learn/walk.ts
// computes every figure). ← → move, Esc leaves (the app's Escape stack: an open card closes
// first), each step has its URL (learn-url.ts).

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A step source naming a reference file (else it is a sentence: another agent's preset source). */

const FAMILY_NAMES: Record<LearnCompaction['family'], string> = {
  summarize: 'summary',
  truncate: 'truncation',
  clear: 'clearing',
};

/** True when a key press is typing into a field, not a request to move. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button'].includes(target.type);
  return target.isContentEditable || target.closest('textarea, select, [role="textbox"]') !== null;
}

export function LearnView({ sessionId, strategyId }: { sessionId: SessionId; strategyId: string }) {
  const step = useLearnStore((s) => s.step);
  const large = useLearnStore((s) => s.large);
  const overrides = useLearnStore((s) => s.overrides[strategyId]);
  const event = useLearnStore((s) => s.event);
  const { setStep, setLarge, setEvent, close, open } = useLearnStore.getState();
  const branchId = useBranchStore((s) => (s.sessionId === sessionId ? s.branchId : 0));
  // The built-ins, then the custom strategies the user ran on this session (their walks come from
  // their sandboxes: custom-registry.ts).
  const customs = usePageCustomStrategies(sessionId);
  const strategies = useMemo(() => [...STRATEGY_DESCRIPTORS, ...customs], [customs]);
  // A link naming a strategy this page does not hold (a custom one: no link carries its code, and
  // a reload forgets what was run) walks the log's own strategy instead, and says so.
  const known = strategies.some((s) => s.id === strategyId);
  const [unloaded, setUnloaded] = useState<string>();
  useEffect(() => {
    if (known) return;
    setUnloaded(strategyId);
    const own = useReplayStore.getState().strategyId;
    open(STRATEGY_DESCRIPTORS.some((d) => d.id === own) ? own : DEFAULT_STRATEGY_ID, 0);
  }, [known, strategyId, open]);
  const {
    data: walk,
    error,
    isFetching,
  } = useQuery({
    ...learnWalkQuery(sessionId, strategyId, overrides ?? {}, branchId, event),
    enabled: known,
  });
  const count = walk?.strategyId === strategyId ? walk.steps.length : 0;
  const index = count ? Math.min(step, count - 1) : step;
  const current = walk?.strategyId === strategyId ? walk.steps[index] : undefined;
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEscapeLayer(close);

  // A step URL past the end of a walk (a knob change made it shorter) lands on the last step.
  useEffect(() => {
    if (count && step > count - 1) setStep(count - 1);
  }, [count, step, setStep]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target))
        return;
      const last = useLearnStore.getState().step;
      if (event.key === 'ArrowRight' && count && last < count - 1) setStep(last + 1);
      else if (event.key === 'ArrowLeft' && last > 0) setStep(last - 1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count, setStep]);

  // The new step's title takes focus, so a screen reader reads it and Tab starts from it.
  const currentId = current?.id;
  useEffect(() => {
    if (currentId !== undefined && !isTyping(document.activeElement))
      headingRef.current?.focus({ preventScroll: true });
  }, [currentId]);

  return (
    <main
      className={`learn-view${large ? ' learn-large' : ''}`}
      data-testid="learn-view"
      aria-busy={isFetching}
    >
      <div className="learn-head">
        <span className="learn-mark">Learn</span>
        <fieldset className="learn-strategies">
          <legend className="visually-hidden">Strategy</legend>
          {strategies.map((s) => (
            <button
              key={s.id}
              type="button"
              aria-pressed={s.id === strategyId}
              className={`learn-tab${s.id === strategyId ? ' active' : ''}`}
              data-testid={`learn-strategy-${s.id}`}
              onClick={() => open(s.id, 0)}
            >
              {s.label}
            </button>
          ))}
        </fieldset>
        <label className="learn-large-toggle">
          <input
            type="checkbox"
            checked={large}
            data-testid="learn-large"
            onChange={(e) => setLarge(e.currentTarget.checked)}
          />{' '}
          Large type
        </label>
        <button type="button" className="btn" data-testid="learn-close" onClick={close}>
          Leave (Esc)
        </button>
      </div>
      {unloaded !== undefined && (
        <UnloadedStrategyNotice
          strategyId={unloaded}
          shownLabel={strategies.find((s) => s.id === strategyId)?.label ?? strategyId}
          onDismiss={() => setUnloaded(undefined)}
        />
      )}
      <nav className="learn-nav" aria-label="Steps">
        <button
          type="button"
          className="btn"
          data-testid="learn-back"
          disabled={index <= 0}
          onClick={() => setStep(index - 1)}
        >
          ← Back
        </button>
        <ol className="learn-dots">
          {walk?.strategyId === strategyId &&
            walk.steps.map((s, i) => (
              <li key={s.id}>
                <button
                  type="button"
                  className={`learn-dot${i === index ? ' active' : ''}`}
                  aria-current={i === index ? 'step' : undefined}
                  title={s.title}
                  onClick={() => setStep(i)}
                >
                  {i + 1}
                </button>
              </li>
            ))}
        </ol>
        {walk?.strategyId === strategyId && walk.compactions.length > 1 && (
          <label className="learn-pick">
            Compaction{' '}
            <select
              data-testid="learn-event"
              value={walk.focusEventIndex ?? ''}
              onChange={(e) => setEvent(Number(e.currentTarget.value))}
            >
              {walk.compactions.map((c, i) => (
                <option key={c.eventIndex} value={c.eventIndex}>
                  {/* The context it acts on: the same in every run of the walk (what follows it
                      depends on the summary the walk writes, told in the steps; issue 24 item 6). */}
                  {`${i + 1}. ${FAMILY_NAMES[c.family]} at call ${c.afterApiCall + 1}, at ${fmt(c.preTokens)} tokens`}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="learn-count" data-testid="learn-count">
          {count ? `Step ${index + 1} of ${count}` : 'Computing…'}
        </span>
        <button
          type="button"
          className="btn primary"
          data-testid="learn-next"
          disabled={!count || index >= count - 1}
          onClick={() => setStep(index + 1)}
        >
          Next →
        </button>
      </nav>
      {error ? (
        <p className="learn-error" role="alert">
          {error instanceof Error ? error.message : String(error)}
        </p>
      ) : current && walk ? (
        <article className="learn-step" data-testid="learn-step" data-step-id={current.id}>
          <h1 ref={headingRef} tabIndex={-1} data-testid="learn-title">
            {current.title}
          </h1>
          <p className="learn-lead">{current.lead}</p>
          {current.source && <p className="learn-source">Source: {current.source}</p>}
          <div className="learn-columns">
            <div className="learn-main">
              {current.bar && <LearnBarChart bar={current.bar} large={large} />}
              <Figures step={current} />
              <Lists step={current} />
              <Texts step={current} />
            </div>
            {current.constants.length > 0 && (
              <LearnConstants
                strategyId={strategyId}
                constants={current.constants}
                overridden={overrides ?? {}}
              />
            )}
          </div>
          {index === 0 && walk.sessionNotes.length > 0 && (
            <details className="learn-notes">
              <summary>The log’s own settings</summary>
              <ul>
                {walk.sessionNotes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </details>
          )}
        </article>
      ) : (
        <p className="learn-wait">Computing the walk…</p>
      )}
    </main>
  );
}

function Figures({ step }: { step: LearnStep }) {
  if (!step.figures.length) return null;
  return (
    <table className="learn-figures" data-testid="learn-figures">
      <tbody>
        {step.figures.map((f) => (
          <tr key={f.label} className={f.strong ? 'strong' : undefined}>
            <th scope="row">
              {f.label}
              {f.how && <span className="how">{f.how}</span>}
            </th>
            <td className="num" data-testid={`figure-${f.label}`}>
              {fmt(f.value)}
              {f.unit === 'tokens' ? <span className="unit"> tokens</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Lists({ step }: { step: LearnStep }) {
  return (
    <>
      {step.lists
        .filter((l) => l.rows.length > 0)
        .map((l) => (
          <section key={l.title} className="learn-list">
            <h2>{l.title}</h2>
            <ul>
              {l.rows.map((row, i) => (
                // Rows may repeat (the same file twice): position keeps them apart.
                // biome-ignore lint/suspicious/noArrayIndexKey: a static list, never reordered
                <li key={i}>
                  <VisibleText text={row} />
                </li>
              ))}
            </ul>
            {l.more > 0 && <p className="muted">… and {fmt(l.more)} more</p>}
          </section>
        ))}
    </>
  );
}

function Texts({ step }: { step: LearnStep }) {
  return (
    <>
      {step.texts.map((t) => (
        <section key={t.title} className="learn-text">
          <h2>{t.title}</h2>
          <pre>
            <VisibleText text={t.body} />
            {t.moreChars > 0 && `\n… ${fmt(t.moreChars)} more characters`}
          </pre>
        </section>
      ))}
    </>
  );
}
