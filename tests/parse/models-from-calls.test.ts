import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemorySource } from '../../src/engine/parse/source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeStatsRow } from '../../src/cli/stats/stats-row';
import { FOREIGN, corpusOrSkip } from '../helpers/corpus';

// Issue 18 item 9: a session's models are the models that answered its calls, in order of first
// use. A real pi session (../shared/corpus/foreign, termux-monorepo, 2026-05-07: two `model_change`
// records, 2 calls of the first model and 12 of the second, then a failed request) gets one more
// `model_change`, to a model it then never calls (as the session did): the model list and
// `stats` must not name it.

const present = corpusOrSkip('models-from-calls test');
const PI =
  'timerloggedout-spec__termux-monorepo/.pi/agent/sessions/--data-data-com.termux-files-home--/2026-05-07T13-49-54-044Z_019e02b3-bbeb-74cc-ab75-076b653c68a7.jsonl';

describe.skipIf(!present)('models come from the calls', () => {
  const text = present ? readFileSync(join(FOREIGN, PI), 'utf8') : '';
  const lastId = present ? (JSON.parse(text.trim().split('\n').at(-1)!) as { id: string }).id : '';
  const switched = `${text.trimEnd()}\n${JSON.stringify({
    type: 'model_change',
    id: 'f00dcafe',
    parentId: lastId,
    timestamp: '2026-05-07T14:05:00.000Z',
    provider: 'openrouter',
    modelId: 'never/answered-model',
  })}\n`;

  it('lists each model that answered, in order of first use, and no model only switched to', async () => {
    const session = await parseSession([createMemorySource('session.jsonl', switched)]);
    expect(session.meta.models).toEqual([
      'Qwen/Qwen3-235B-A22B-Thinking-2507',
      'deepseek-ai/DeepSeek-V4-Pro',
    ]);
    const byModel = new Map<string, number>();
    for (const c of session.apiCalls) byModel.set(c.model, (byModel.get(c.model) ?? 0) + 1);
    expect(Object.fromEntries(byModel)).toEqual({
      'Qwen/Qwen3-235B-A22B-Thinking-2507': 2,
      // 13 responses, the last a failed request (402, usage all 0): no call (issue 18 item 5).
      'deepseek-ai/DeepSeek-V4-Pro': 12,
    });
    expect(session.failedRequests?.map((f) => f.reason)).toEqual(['error']);
  });

  it('stats names the model that answered last, not the one switched to', async () => {
    const row = await computeStatsRow('session.jsonl', [createMemorySource('session.jsonl', switched)]);
    expect(row.model).toBe('deepseek-ai/DeepSeek-V4-Pro');
  });
});
