import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getCompactionDetail } from '../../src/engine/query/compaction-detail';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeRealTriggerCount } from '../../src/engine/replay/real-trigger';
import { CORPUS, corpusOrSkip, REAL_LOGS } from '../helpers/corpus';
import { parseJsonLines } from '../truth/types';

// A real Codex compaction fires below the chart's bar because Codex counts the last response's
// total_tokens plus its estimate of the encrypted reasoning it sends back. The card of the real
// compaction says what Codex counted (computeRealTriggerCount); its first part is read here from
// the raw records: the last token_count before the `compacted` line whose running total changed.

/** The last call's `total_tokens` before the rollout's first `compacted` line, from its raw lines. */
function rawLastTotal(text: string): number {
  let last = 0;
  let running: number | undefined;
  for (const r of parseJsonLines(text)) {
    if (r.type === 'compacted') break;
    const info = r.type === 'event_msg' && r.payload?.type === 'token_count' ? r.payload.info : undefined;
    if (!info || info.total_token_usage?.total_tokens === running) continue;
    running = info.total_token_usage?.total_tokens;
    last = info.last_token_usage?.total_tokens ?? last;
  }
  return last;
}

/**
 * Codex's estimate from the raw lines: the encrypted reasoning items before the history's last
 * user message, each `len × 3/4 − 650` bytes (at least 0), summed, ÷ 4, up to the `compacted` line.
 */
function rawReasoningEstimate(text: string): number {
  const items: Record<string, unknown>[] = [];
  for (const r of parseJsonLines(text)) {
    if (r.type === 'compacted') break;
    if (r.type === 'response_item') items.push(r.payload);
  }
  let lastUser = -1;
  items.forEach((p, i) => {
    if (p.type === 'message' && p.role === 'user') lastUser = i;
  });
  let bytes = 0;
  for (const p of items.slice(0, Math.max(0, lastUser)))
    if (p.type === 'reasoning' && typeof p.encrypted_content === 'string')
      bytes += Math.max(0, Math.floor((p.encrypted_content.length * 3) / 4) - 650);
  return Math.ceil(bytes / 4);
}

const ROLLOUTS = [
  join(
    REAL_LOGS,
    'Quelklef__shell-ws/.codex/sessions/2026/03/18/rollout-2026-03-18T11-04-43-019d021f-1244-77d2-b5aa-ba1d70f11e87.jsonl',
  ),
  join(
    CORPUS,
    'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-24T21-27-50-019d2308-c368-7ca0-8331-65a7d470352c.jsonl',
  ),
];

describe.skipIf(!corpusOrSkip('what Codex counted at its real compactions'))(
  'the count behind a real Codex compaction',
  () => {
    for (const path of ROLLOUTS) {
      it.skipIf(!existsSync(path))(
        `${basename(path)}: the last usage plus the reasoning estimate, at or over the threshold`,
        async () => {
          const raw = readFileSync(path, 'utf8');
          const session = await parseSession([createMemorySource(basename(path), Buffer.from(raw))]);
          expect(session.compactions).toHaveLength(1);
          const count = computeRealTriggerCount(prepareReplay(session), 0);
          expect(count).toBeDefined();
          const [usage, reasoning] = count!.parts;
          expect(count!.strategyLabel).toBe('Codex CLI');
          expect(usage!.tokens).toBe(rawLastTotal(raw));
          expect(reasoning!.label).toMatch(/reasoning/);
          expect(reasoning!.source).toMatch(
            /openai\/codex@[0-9a-f]{40}:.*get_non_last_reasoning_items_tokens/,
          );
          expect(count!.parts.reduce((n, p) => n + p.tokens, 0)).toBe(count!.countTokens);
          // The source's estimate from the raw records: the reasoning before the last user message
          // the check saw (32,044 mid-turn; 50,142 on the shell-ws rollout, whose compaction ran
          // before the next turn's prompt was recorded: counting that prompt as the last took
          // 51,921).
          expect(reasoning!.tokens).toBe(rawReasoningEstimate(raw));
          // 90% of the raw window: the rollout's model_context_window (258,400) is 95% of 272,000.
          expect(count!.thresholdTokens).toBe(244_800);
          expect(count!.countTokens).toBeGreaterThanOrEqual(count!.thresholdTokens);
          // The chart's point, the call's context, is under the bar: why the card says it.
          expect(getCompactionDetail(session, 0).callBeforeTokens!).toBeLessThan(count!.thresholdTokens);
        },
      );
    }
  },
);
