import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { formatReplayDump } from '../../src/engine/replay/dump';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import type { Session } from '../../src/engine/types';
import { CORPUS, corpusJsonl, corpusPresent } from '../helpers/corpus';
import { expectGolden } from '../helpers/golden';
import { logKnobsOf, runStrategy, strategyCases, type Variant, variantsOf } from './strategy-variants';
import { REPLAY_FIXTURES as FIXTURES } from './replay-fixtures';

// Golden replay dumps (STYLE.md §7): a transcript in, one line per replay event out, plus how
// the replay compares with the log. `UPDATE_GOLDEN=1` rewrites them; review the diff.

/**
 * The log's own knobs, then each variant, for one strategy. Claude Code's goldens keep their
 * names (`tiny`); another strategy's carry its id (`tiny.codex`).
 */
function dumpReplay(session: Session, strategyId: string, variants: readonly Variant[]): string {
  const prepared = prepareReplay(session);
  const { knobs: logKnobs, notes } = logKnobsOf(prepared, strategyId);
  const parts: string[] = [];
  for (const { label, knobs } of [{ label: "the log's own knobs", knobs: {} }, ...variants]) {
    const result = runStrategy(prepared, strategyId, { ...logKnobs, ...knobs });
    parts.push(`== ${label}`, formatReplayDump(prepared, result));
    if (label === "the log's own knobs") parts.push(...notes.map((n) => `note: ${n}`));
  }
  return `${parts.join('\n')}\n`;
}

const goldenName = (fixture: string, strategyId: string) =>
  `golden/replay/${strategyId === 'claude-code' ? fixture : `${fixture}.${strategyId}`}`;

describe.each(strategyCases())('replay dumps (golden): $id on the fixtures', ({ id }) => {
  it.each(FIXTURES)('$label', async ({ name, load }) => {
    expectGolden(goldenName(name, id), dumpReplay(await load(), id, variantsOf(id)));
  });
});

// A Cline log replayed by the Cline strategy: the task folder fixture and the corpus UI log (a
// whole JSON document, so not among the corpus JSONL files below).
describe('replay dumps (golden): Cline logs', () => {
  it('the Cline task folder', async () => {
    const dir = resolve(__dirname, '../fixtures/cline-task');
    const session = await parseSession(
      readdirSync(dir).map((f) => createMemorySource(f, readFileSync(join(dir, f)))),
    );
    expectGolden('golden/replay/cline-task', dumpReplay(session, 'cline', variantsOf('cline')));
  });
  const clineLog = join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');
  it.skipIf(!existsSync(clineLog))('the corpus Cline UI log (skipped without ../shared)', async () => {
    const session = await parseSession([createMemorySource('ui_messages.json', readFileSync(clineLog))]);
    expectGolden('golden/replay/corpus/cline-task_sample', dumpReplay(session, 'cline', []));
  });
});

const corpus = corpusJsonl();
if (!corpusPresent) console.warn(`replay dumps (golden): corpus skipped, ${CORPUS} is absent`);
/** Compaction events of a replay (a compaction the strategy decided, not a clearing). */
const compactions = (r: ReplayResult) => r.events.filter((e) => e.kind === 'compact').length;

// One golden per corpus transcript that compacts (numbers only: no text of the logs is stored),
// replayed by the strategy of the agent that wrote it; a transcript that never compacted must not
// compact in the replay either, at its own knobs.
describe.skipIf(corpus.length === 0)('replay dumps (golden): corpus', () => {
  it.each(
    corpus.map((f) => ({
      file: f,
      // The session or agent id only: the rest of a corpus name is someone's project path.
      name: basename(f, '.jsonl').split('__').pop() ?? f,
    })),
  )('$name', async ({ file, name }) => {
    const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
    const strategyId = getDefaultStrategyId(session.format);
    if (session.compactions.length) {
      expectGolden(goldenName(`corpus/${name}`, strategyId), dumpReplay(session, strategyId, []));
      return;
    }
    const prepared = prepareReplay(session);
    const result = runStrategy(prepared, strategyId, logKnobsOf(prepared, strategyId).knobs);
    expect(result.comparison.expected, 'the log compacted nothing').toBe(0);
    expect(compactions(result), `${strategyId} at the log's own knobs compacts where the log did not`).toBe(
      0,
    );
  });
});
