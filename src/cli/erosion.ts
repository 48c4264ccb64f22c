import { basename } from 'node:path';
import { parseArgs } from './cli-args';
import { computeLogErosion, computeReplayErosion, type ErosionChain } from '../engine/erosion/erosion';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS } from '../engine/retention/types';
import { describeNothingRead } from './session-files';
import { loadSession, runReplay, SHARE_OPTIONS } from './share-args';
import { escapeTerminalText } from './terminal-text';

// `compactlab erosion`: what a chain of compactions forgets, step by step (engine/erosion/).

export const EROSION_USAGE = `  compactlab erosion <session.jsonl> [subagent files…] [--replay [--strategy id] [--knob k=v…]] [--json]
      Score every summary of the chain against everything the session held since its start:
      retention per fact category after each compaction, and the facts each step lost (with the
      line where the session held them). The log's own summaries by default; --replay scores a
      replay's compactions, each summarized by the built-in summarizer (offline).`;

type Out = (text: string) => void;

const pct = (ratio: number): string => `${Math.round(ratio * 100)}%`;

/** The chain as text: one block per step. */
export function renderErosion(chain: ErosionChain, fileName: (index: number) => string): string {
  const lines: string[] = [
    chain.source === 'log'
      ? "Erosion of the log's own summaries"
      : `Erosion of a replay with ${chain.strategyId}`,
  ];
  for (const note of chain.notes) lines.push(`  note: ${note}`);
  const categories = FACT_CATEGORIES.filter((c) => chain.steps.some((s) => s.byCategory[c].total > 0));
  for (const step of chain.steps) {
    lines.push(
      '',
      `${step.index + 1}. ${step.label} (${step.summarySource} summary, ${step.summaryChars.toLocaleString('en-US')} characters)`,
      `   kept ${step.kept} of ${step.total} facts held since the start (${pct(step.ratio)}); ${step.newFacts} new in its span; first span's facts kept ${step.byOrigin[0]?.kept ?? 0}/${step.byOrigin[0]?.total ?? 0}`,
      `   ${categories.map((c) => `${FACT_CATEGORY_LABELS[c]} ${step.byCategory[c].kept}/${step.byCategory[c].total}`).join(' · ')}`,
    );
    if (step.lost.length > 0) lines.push(`   lost ${step.lost.length}:`);
    for (const id of step.lost) {
      const f = chain.facts[id];
      if (f) lines.push(`     - ${f.category}: ${f.text}  (${fileName(f.fileIndex)}:${f.line})`);
    }
    if (step.regained.length > 0) lines.push(`   back again: ${step.regained.length}`);
  }
  if (chain.steps.length === 0) lines.push('', 'No summary to score.');
  return lines.join('\n');
}

export async function erosionCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      strategy: SHARE_OPTIONS.strategy,
      knob: SHARE_OPTIONS.knob,
      replay: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (positionals.length === 0) {
    out(`Usage:\n${EROSION_USAGE}`);
    return 2;
  }
  const { session, sources } = await loadSession(positionals);
  if (session.entries.length === 0) {
    process.stderr.write(`compactlab erosion: ${escapeTerminalText(describeNothingRead(session))}\n`);
    return 1;
  }
  let chain: ErosionChain;
  if (values.replay) {
    const replay = runReplay(session, values.strategy, values.knob);
    chain = await computeReplayErosion(session, sources, replay.events, replay.strategyId);
  } else chain = await computeLogErosion(session, sources);
  out(
    values.json
      ? JSON.stringify(chain, null, 2)
      : renderErosion(chain, (i) => basename(session.files[i]?.name ?? `file ${i + 1}`)),
  );
  return 0;
}
