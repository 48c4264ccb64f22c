import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getKnobStep, placeKnobs } from '../../src/engine/learn/place-knobs';
import type { LearnStep, LearnWalk } from '../../src/engine/learn/types';
import { computeLearnWalk, pickAttempts, pickFocusEvent } from '../../src/engine/learn/walk';
import { parseSession } from '../../src/engine/parse/parse-session';
import { type ByteSource, createMemorySource } from '../../src/engine/parse/source';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { createTokenProvenance } from '../../src/engine/replay/provenance';
import type { ReplayEvent } from '../../src/engine/replay/types';
import { CLAUDE_CODE_KNOB_SPECS } from '../../src/engine/strategies/claude-code/knobs';
import { selectMicrocompact } from '../../src/engine/strategies/claude-code/microcompact';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import type { ClaudeCodeKnobs } from '../../src/engine/strategies/claude-code/knobs';
import { getClaudeCodeSessionKnobs } from '../../src/engine/strategies/claude-code/session-knobs';
import { getSessionInfo, type KnobSpec } from '../../src/engine/strategies/types';
import { computeThresholds } from '../../src/engine/thresholds';
import type { Session } from '../../src/engine/types';
import { fieldsOf } from '../replay/events';

// Learn mode's step model (engine/learn/): built from the replay's events and the knob specs of
// each strategy, on the bundled sample (public/samples, committed with the repo).

const ROOT = resolve(__dirname, '../..');

let session: Session;
let sources: ByteSource[];
let prepared: PreparedReplay;

beforeAll(async () => {
  const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
  sources = index.files.map((f: { path: string }) =>
    createMemorySource(f.path, readFileSync(join(ROOT, 'public/samples', f.path))),
  );
  session = await parseSession(sources);
  prepared = prepareReplay(session);
});

const walkOf = (strategyId: string, knobOverrides?: Record<string, unknown>) =>
  computeLearnWalk({ session, sources, prepared, strategyId, knobOverrides });

const stepOf = (walk: LearnWalk, id: string): LearnStep => {
  const step = walk.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step ${id} in ${walk.steps.map((s) => s.id).join(', ')}`);
  return step;
};
const figure = (step: LearnStep, label: string): number => {
  const f = step.figures.find((x) => x.label === label);
  if (!f) throw new Error(`no figure "${label}" in step ${step.id}`);
  return f.value;
};

function event(
  kind: ReplayEvent['kind'],
  afterApiCall: number,
  trigger: ReplayEvent['trigger'] = 'auto',
): ReplayEvent {
  const source = createTokenProvenance('recorded');
  return {
    kind,
    trigger,
    afterApiCall,
    afterEntryIndex: afterApiCall,
    checkTokens: 0,
    thresholdTokens: 0,
    preTokens: 0,
    postTokens: 0,
    preSource: source,
    postSource: source,
  } as ReplayEvent;
}

describe('which event a walk follows', () => {
  it('takes the first summary, else the first truncation, else the first clearing; never a log event', () => {
    const events = [
      event('microcompact', 3),
      event('reset', 4, 'log'),
      event('truncate', 6),
      event('compact', 9),
    ];
    expect(pickFocusEvent(events)).toEqual({ index: 3, family: 'summarize' });
    expect(pickFocusEvent(events.slice(0, 3))).toEqual({ index: 2, family: 'truncate' });
    expect(pickFocusEvent(events.slice(0, 2))).toEqual({ index: 0, family: 'clear' });
    expect(pickFocusEvent([event('reset', 1, 'log')])).toEqual({ index: -1, family: 'none' });
  });

  it('shows the last clearing of each kind before the focus as the attempts', () => {
    const events = [
      event('replace', 1),
      event('microcompact', 2),
      event('microcompact', 5),
      event('compact', 7),
    ];
    expect(pickAttempts(events, 3)).toEqual([0, 2]);
    expect(pickAttempts(events, 0)).toEqual([]);
  });
});

describe('where a knob acts', () => {
  it('places each Claude Code knob on the step its reference describes', () => {
    const at = (key: string) => getKnobStep(CLAUDE_CODE_KNOB_SPECS.find((s) => s.key === key)!);
    expect(at('contextWindow')).toBe('check');
    expect(at('autocompactPctOverride')).toBe('check');
    expect(at('microcompactMinSavings')).toBe('clear');
    expect(at('microcompactEnabled')).toBe('clear');
    expect(at('restoreMaxFiles')).toBe('restore');
    expect(at('customInstructions')).toBe('prompt');
    expect(at('continuationFormat')).toBe('continuation');
    expect(at('sessionMemoryTokens')).toBe('summary');
  });

  it('sends a knob whose step the walk lacks to the check, and an unknown one there too', () => {
    const spec: KnobSpec = {
      key: 'frobnicate',
      label: 'Frobnicate',
      kind: 'number',
      source: 'x',
      group: 'Misc',
    };
    expect(getKnobStep(spec)).toBe('check');
    const placed = placeKnobs(CLAUDE_CODE_KNOB_SPECS, {}, new Set(['overview', 'check'] as const));
    expect([...placed.keys()]).toEqual(['check']);
    expect(placed.get('check')).toHaveLength(CLAUDE_CODE_KNOB_SPECS.length);
  });
});

describe('every strategy gets a walk from its events and knob specs', () => {
  for (const strategy of STRATEGIES) {
    it(`${strategy.id}: distinct steps, every knob placed once with the value the walk ran with`, async () => {
      const walk = await walkOf(strategy.id);
      const ids = walk.steps.map((s) => s.id);
      expect(ids.slice(0, 2)).toEqual(['overview', 'check']);
      expect(new Set(ids).size).toBe(ids.length);
      const knobs = walk.steps.flatMap((s) => s.constants.filter((c) => c.spec));
      expect(knobs.map((c) => c.key).sort()).toEqual(strategy.knobSpecs.map((s) => s.key).sort());
      for (const c of knobs) expect(c.value, c.key).toEqual(walk.knobs[c.key]);
      for (const c of walk.steps.flatMap((s) => s.constants)) expect(c.source, c.key).not.toBe('');
      // The family matches the richest event the walk's step list shows.
      if (walk.family === 'none') expect(ids).toEqual(['overview', 'check']);
      else {
        expect(ids.at(-1)).toBe('after');
        // The bar marks, at the event's call, the very count the check step states.
        const check = stepOf(walk, 'check');
        expect(check.bar!.checkTokens[check.bar!.focus]).toBe(Math.round(figure(check, 'Count compared')));
        expect(check.bar!.apiCalls[check.bar!.focus]).toBe(walk.afterApiCall);
      }
    });
  }
});

describe("Claude Code's walk on the sample", () => {
  it('has every step of a full compaction, in order', async () => {
    const walk = await walkOf('claude-code');
    expect(walk.family).toBe('summarize');
    expect(walk.steps.map((s) => s.id)).toEqual([
      'overview',
      'check',
      'clear',
      'attempt',
      'span',
      'filter',
      'prompt',
      'summary',
      'cleanup',
      'boundary',
      'restore',
      'continuation',
      'after',
    ]);
  });

  it('derives the threshold from the knobs and shows the count over it, summed from its parts', async () => {
    const walk = await walkOf('claude-code');
    const check = stepOf(walk, 'check');
    const own = getClaudeCodeSessionKnobs(getSessionInfo(prepared)).knobs;
    const threshold = computeThresholds(own).autoCompact;
    expect(figure(check, 'Auto-compact threshold')).toBe(threshold);
    expect(
      figure(check, 'Context window') -
        figure(check, 'Reserved for output') -
        figure(check, 'Free-space buffer'),
    ).toBe(threshold);
    const count = figure(check, 'Count compared');
    expect(count).toBeGreaterThanOrEqual(threshold);
    expect(count).toBeCloseTo(
      figure(check, 'Simulated context sent') +
        figure(check, 'Output of the response') +
        figure(check, 'Pending estimate'),
      3,
    );
    const call = session.apiCalls[walk.afterApiCall!]!;
    const u = call.usage;
    expect(figure(check, `Recorded context of API call ${walk.afterApiCall! + 1}`)).toBe(
      u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens,
    );
    // The bar stops at the focus call, whose count it marks.
    expect(check.bar?.checkTokens[check.bar.focus]).toBe(Math.round(count));
    expect(check.bar?.apiCalls[check.bar.focus]).toBe(walk.afterApiCall);
    expect(check.bar?.thresholdTokens).toBe(threshold);
  });

  it('re-runs with a changed constant: a smaller window lowers the threshold, a lower percentage compacts earlier', async () => {
    const base = await walkOf('claude-code');
    const smaller = await walkOf('claude-code', { contextWindow: 180_000 });
    expect(smaller.knobs.contextWindow).toBe(180_000);
    const threshold = figure(stepOf(smaller, 'check'), 'Auto-compact threshold');
    expect(threshold).toBe(figure(stepOf(base, 'check'), 'Auto-compact threshold') - 20_000);
    expect(smaller.afterApiCall!).toBeLessThanOrEqual(base.afterApiCall!);
    // Half the effective window: min(⌊168,000 × 50%⌋, 155,000) = 84,000, reached long before.
    const half = await walkOf('claude-code', { autocompactPctOverride: 50 });
    expect(figure(stepOf(half, 'check'), 'Auto-compact threshold')).toBe(84_000);
    expect(half.afterApiCall!).toBeLessThan(base.afterApiCall! - 50);
    // Untrusted input goes through the strategy's own validation: clamped to the spec's range,
    // or the log's own value when it is not a number at all.
    expect((await walkOf('claude-code', { contextWindow: -5 })).knobs.contextWindow).toBe(10_000);
    const invalid = await walkOf('claude-code', { contextWindow: 'lots' });
    expect(invalid.knobs.contextWindow).toBe(base.knobs.contextWindow);
  });

  it('says so in its title and first sentence when nothing compacts under the knobs', async () => {
    const walk = await walkOf('gemini-cli', { tokenLimit: 4_000_000, maskingEnabled: 'off' });
    const overview = stepOf(walk, 'overview');
    expect(figure(overview, 'Compaction events in the replay')).toBe(0);
    expect(overview.title).toBe('Gemini CLI: why nothing compacts here');
    expect(overview.lead).toContain('On this transcript it does not compact with these settings.');
    expect(stepOf(await walkOf('gemini-cli'), 'overview').title).toMatch(/one compaction, step by step$/);
  });

  it('clears results only when the savings pass the minimum, and says which', async () => {
    const walk = await walkOf('claude-code');
    const clear = stepOf(walk, 'clear');
    const min = walk.knobs.microcompactMinSavings as number;
    expect(figure(clear, 'Savings, the agent’s estimate')).toBeGreaterThan(min);
    // The minimum it is compared with is the knob's value, shown beside it.
    expect(figure(clear, 'Minimum savings')).toBe(min);
    expect(clear.figures.find((f) => f.label === 'Minimum savings')!.how).toMatch(
      /≥ 20,000: worth clearing$/,
    );
    expect(clear.lists[0]!.rows.length + clear.lists[0]!.more).toBe(figure(clear, 'Tool results cleared'));
    expect(clear.lists[0]!.rows[0]).toMatch(/^(Read|Bash|Grep|Glob|Edit|Write|WebFetch|WebSearch)\b/);
    // A minimum above what it would save: no clearing, no such step.
    const none = await walkOf('claude-code', { microcompactMinSavings: 2_000_000 });
    expect(none.steps.map((s) => s.id)).not.toContain('clear');
  });

  it('summarizes with the built-in summarizer and carries its size into the context after', async () => {
    const walk = await walkOf('claude-code');
    const summary = stepOf(walk, 'summary');
    expect(summary.texts[0]!.body).toContain('Built-in summary by CompactLab');
    const builtin = figure(summary, 'Built-in summary');
    const carried = figure(summary, 'Summary size in the replay');
    // The replay is given the cleaned text's size: a few characters of tags less.
    expect(carried).toBeLessThanOrEqual(builtin);
    expect(carried).toBeGreaterThan(builtin - 20);
    // The summary message in the context after: the summary and the continuation's wrapper.
    const wrapper = figure(stepOf(walk, 'continuation'), 'Wrapper around the summary');
    const after = stepOf(walk, 'after');
    expect(after.figures.find((f) => f.label === 'After')!.how).toContain(
      `summary ${(carried + wrapper).toLocaleString('en-US')} (supplied)`,
    );
    // The context after, part by part: base + summary message + re-attachments.
    const parts = ['System prompt and tools', 'Summary message', 'Re-attached files, todos, plan'];
    expect(parts.reduce((sum, label) => sum + figure(after, label), 0)).toBeCloseTo(
      figure(after, 'After'),
      6,
    );
    expect(figure(after, 'Summary message')).toBe(carried + wrapper);
    // One figure, one meaning (issue 24 item 6): the picker's entry for the focus is the step's.
    const focus = walk.compactions.find((c) => c.eventIndex === walk.focusEventIndex)!;
    expect(focus.preTokens).toBe(figure(after, 'Before'));
    expect(focus.postTokens).toBe(figure(after, 'After'));
    // Beside the replay's after, the log's own recorded context at the next call (issue 24 item 8).
    const real = after.figures.find((f) => f.label === 'In the log, next call')!;
    const pos = after.bar!.focus;
    expect(real.value).toBe(after.bar!.recordedTokens[pos + 1]);
    expect(real.value).toBeGreaterThan(0);
    expect(real.value).not.toBe(figure(after, 'After'));
    const cleanup = stepOf(walk, 'cleanup');
    expect(cleanup.texts[0]!.body).toMatch(/^Summary:\n/);
    const boundary = JSON.parse(stepOf(walk, 'boundary').texts[0]!.body);
    expect(boundary).toMatchObject({ subtype: 'compact_boundary', compactMetadata: { trigger: 'auto' } });
    expect(boundary.compactMetadata.preTokens).toBe(
      Math.round(figure(stepOf(walk, 'check'), 'Count compared')),
    );
    const continuation = stepOf(walk, 'continuation').texts[0]!.body;
    expect(continuation).toMatch(/^This session is being continued from a previous conversation/);
    expect(continuation).toContain('Summary:\n');
  });

  it('restores files within the limits the teacher sets', async () => {
    const walk = await walkOf('claude-code');
    const files = figure(stepOf(walk, 'restore'), 'Files re-attached');
    expect(files).toBeGreaterThan(1);
    const fewer = await walkOf('claude-code', { restoreMaxFiles: 1 });
    expect(figure(stepOf(fewer, 'restore'), 'Files re-attached')).toBe(1);
    expect(figure(stepOf(fewer, 'restore'), 'Re-attached tokens')).toBeLessThan(
      figure(stepOf(walk, 'restore'), 'Re-attached tokens'),
    );
  });

  it('keeps the knob types of the strategy (a typed view of the effective knobs)', async () => {
    const walk = await walkOf('claude-code');
    const knobs = walk.knobs as unknown as ClaudeCodeKnobs;
    expect(typeof knobs.autoCompactEnabled).toBe('boolean');
    expect(Array.isArray(knobs.microcompactTools)).toBe(true);
  });
});

describe('the other families on the sample', () => {
  it("Codex on the sample's 200k model compacts at 90% of that raw window (180,000); a higher percentage, at its own", async () => {
    const walk = await walkOf('codex');
    expect(walk.family).toBe('summarize');
    expect(stepOf(walk, 'check').bar!.thresholdTokens).toBe(180_000);
    expect(walk.steps.map((s) => s.id)).toContain('summary');
    const higher = await walkOf('codex', { thresholdPercent: 94 });
    expect(higher.family).toBe('summarize');
    expect(stepOf(higher, 'check').bar!.thresholdTokens).toBe(188_000);
  });

  it('Cline replaces duplicate reads, then truncates: the notice and the dropped range', async () => {
    const walk = await walkOf('cline');
    expect(walk.family).toBe('truncate');
    expect(walk.steps.map((s) => s.id)).toEqual(['overview', 'check', 'replace', 'truncate', 'after']);
    const truncate = stepOf(walk, 'truncate');
    expect(figure(truncate, 'Tokens dropped')).toBeGreaterThan(0);
    expect(truncate.constants.map((c) => c.key)).toContain('truncateKeep');
  });

  it('API context editing clears: keep and clear-at-least act at its clearing step', async () => {
    const walk = await walkOf('api-clear-tool-uses');
    expect(walk.family).toBe('clear');
    const clear = stepOf(walk, 'clear');
    expect(clear.constants.map((c) => c.key)).toEqual(
      expect.arrayContaining(['keepToolUses', 'clearAtLeastTokens']),
    );
    expect(figure(clear, 'Tool results cleared')).toBeGreaterThan(0);
  });
});

describe('the clearing tried at the compaction’s call', () => {
  /**
   * Microcompact's input at API call `apiCall`, rebuilt here from the prepared session: the tool
   * results of its tools in the history (no summary before: from the start to the next call's
   * first position), not cleared by an earlier event, in call order.
   */
  function microcompactInput(walk: LearnWalk, clearedBefore: ReadonlySet<string>): number[] {
    const { clearables, callPos, toolNames } = prepared;
    const k = prepared.calls.indexOf(walk.afterApiCall!);
    const end = callPos[k + 1]!;
    const tools = new Set(walk.knobs.microcompactTools as string[]);
    const out: number[] = [];
    for (const i of clearables.order) {
      const t = clearables.tool[i]!;
      if (t < 0 || !tools.has(toolNames[t]!)) continue;
      if (clearables.pos[i]! >= end || clearedBefore.has(clearables.ids[i]!)) continue;
      out.push(i);
    }
    return out;
  }

  it('shows, at the first summary, what microcompact would clear and its savings against the minimum (selectMicrocompact)', async () => {
    const walk = await walkOf('claude-code');
    const replay = computeReplay(prepared, 'claude-code', walk.knobs, { summaryModel: 'ratio' });
    const cleared = new Set(
      replay.events.slice(0, walk.focusEventIndex).flatMap((e) => fieldsOf(e).clearedToolIds ?? []),
    );
    expect(cleared.size).toBeGreaterThan(0);
    const input = microcompactInput(walk, cleared);
    const k = walk.knobs as unknown as ClaudeCodeKnobs;
    const params = {
      variant: k.microcompactVariant,
      keepRecent: k.microcompactKeepRecent,
      protectTokens: k.microcompactProtectTokens,
      minSavings: k.microcompactMinSavings,
    };
    const picked = selectMicrocompact(
      input.map((i) => prepared.clearables.estimate[i]!),
      params,
    );
    expect(picked).toBeDefined();
    const attempt = stepOf(walk, 'attempt');
    expect(attempt.kind).toBe('clear');
    expect(figure(attempt, 'Eligible results in the history')).toBe(input.length);
    expect(figure(attempt, 'Would clear')).toBe(picked!.clear.length);
    expect(figure(attempt, 'Savings, the agent’s estimate')).toBe(picked!.savings);
    expect(figure(attempt, 'Minimum savings')).toBe(k.microcompactMinSavings);
    expect(figure(attempt, 'Protected (most recent)')).toBe(input.length - picked!.clear.length);
    // The rows name the results it would clear, oldest first.
    const rows = attempt.lists[0]!;
    expect(rows.rows.length + rows.more).toBe(picked!.clear.length);
    const firstId = prepared.clearables.ids[input[picked!.clear[0]!]!]!;
    expect(rows.rows[0]).toContain(`record ${session.toolResultEntry.get(firstId)! + 1}`);
    // v2.1.68 tries microcompact only under the auto-compact threshold: here a summary runs.
    expect(attempt.lead).toMatch(/does not act: the auto-compact threshold is reached/);
  });

  it('says why it does not act: off in this version, or savings under the minimum', async () => {
    const off = await walkOf('claude-code', { microcompactEnabled: false });
    expect(off.steps.map((s) => s.id)).not.toContain('clear');
    expect(stepOf(off, 'attempt').lead).toMatch(/does not act: microcompact is off in this version/);
    // The legacy microcompact is tried at the auto-compact threshold; over its savings the
    // minimum stops it, and the full compaction follows.
    const legacy = await walkOf('claude-code', {
      microcompactVariant: 'legacy',
      microcompactMinSavings: 150_000,
    });
    expect(legacy.family).toBe('summarize');
    const attempt = stepOf(legacy, 'attempt');
    expect(figure(attempt, 'Savings, the agent’s estimate')).toBeLessThan(150_000);
    expect(attempt.figures.find((f) => f.label === 'Minimum savings')!.how).toBe('not passed');
    expect(attempt.lead).toMatch(/does not act: the savings, [\d,]+, do not pass the minimum, 150,000/);
    // Microcompact's own knobs sit on the attempt step when no clearing fired before.
    expect(attempt.constants.map((c) => c.key)).toContain('microcompactMinSavings');
  });

  it('API context editing: which results clear_tool_uses would take at the compaction’s call', async () => {
    // Compaction on, clearing asking for more than there is: the compaction's walk shows the clear's attempt.
    const walk = await walkOf('api-clear-tool-uses', {
      compaction: true,
      compactTriggerTokens: 150_000,
      clearAtLeastTokens: 400_000,
    });
    expect(walk.family).toBe('summarize');
    const attempt = stepOf(walk, 'attempt');
    expect(attempt.title).toMatch(/clear_tool_uses/);
    const keep = walk.knobs.keepToolUses as number;
    expect(figure(attempt, 'Protected (most recent)')).toBe(keep);
    expect(figure(attempt, 'Would clear')).toBe(figure(attempt, 'Eligible results in the history') - keep);
    expect(attempt.lead).toMatch(/under clear_at_least, 400,000/);
  });
});

describe('OpenCode’s prune at its summary’s call', () => {
  it('shows the outputs it would prune, and that it prunes only when a turn ends', async () => {
    const walk = await walkOf('opencode');
    expect(walk.family).toBe('summarize');
    const attempt = stepOf(walk, 'attempt');
    expect(attempt.title).toBe('Prune at the compaction’s call');
    const eligible = figure(attempt, 'Eligible results in the history');
    const would = figure(attempt, 'Would clear');
    expect(would).toBeGreaterThan(0);
    expect(would + figure(attempt, 'Protected (most recent)')).toBe(eligible);
    expect(figure(attempt, 'Minimum savings')).toBe(walk.knobs.pruneMinimumTokens);
    expect(attempt.lead).toMatch(/does not act: the agent’s turn does not end at this call/);
    // Its knobs stay on the prune that fired before.
    expect(stepOf(walk, 'clear').constants.map((c) => c.key)).toContain('pruneMinimumTokens');
    // Protecting more output than there is: nothing to prune.
    const none = await walkOf('opencode', { pruneProtectTokens: 2_000_000 });
    const nothing = stepOf(none, 'attempt');
    expect(figure(nothing, 'Would clear')).toBe(0);
  });
});

describe('picking the compaction to walk', () => {
  it('lists the replay’s compactions and follows the one asked for', async () => {
    const first = await walkOf('gemini-cli');
    expect(first.compactions.length).toBeGreaterThan(1);
    expect(first.focusEventIndex).toBe(first.compactions[0]!.eventIndex);
    const last = first.compactions.at(-1)!;
    const walk = await computeLearnWalk({
      session,
      sources,
      prepared,
      strategyId: 'gemini-cli',
      eventIndex: last.eventIndex,
    });
    expect(walk.focusEventIndex).toBe(last.eventIndex);
    expect(walk.afterApiCall).toBe(last.afterApiCall);
    expect(walk.steps[0]!.lead).toContain(
      `compaction ${first.compactions.length} of ${first.compactions.length}`,
    );
    const check = stepOf(walk, 'check');
    expect(check.bar!.apiCalls[check.bar!.focus]).toBe(last.afterApiCall);
    // Its span starts after the previous compaction: not at the first record.
    expect(stepOf(walk, 'span').lead).not.toMatch(/records 1 to/);
    expect(figure(stepOf(walk, 'after'), 'Before')).toBeCloseTo(last.preTokens, 0);
  });

  it('walks a clearing when one is picked, and falls back to the default for an index that is no compaction', async () => {
    const base = await walkOf('claude-code');
    const clearing = base.compactions.find((c) => c.family === 'clear')!;
    const walk = await computeLearnWalk({
      session,
      sources,
      prepared,
      strategyId: 'claude-code',
      eventIndex: clearing.eventIndex,
    });
    expect(walk.family).toBe('clear');
    expect(walk.afterApiCall).toBe(clearing.afterApiCall);
    for (const eventIndex of [999, -1])
      expect(
        (await computeLearnWalk({ session, sources, prepared, strategyId: 'claude-code', eventIndex }))
          .focusEventIndex,
      ).toBe(base.focusEventIndex);
  });
});
