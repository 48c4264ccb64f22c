import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { PreparedReplay } from '../../src/engine/simulation/prepared';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';

// Another agent's strategy on a log replays the log's model with its window: picking Codex on a
// Claude Code log must not draw a 258,400-token window past the model's 200,000 (issue 24 item 4).
// A strategy changes the window only when the user sets its window knob.

const ROOT = resolve(__dirname, '../..');
let prepared: PreparedReplay;

beforeAll(async () => {
  const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
  const sources = index.files.map((f: { path: string }) =>
    createMemorySource(f.path, readFileSync(join(ROOT, 'public/samples', f.path))),
  );
  prepared = prepareReplay(await parseSession(sources));
});

describe("every strategy on a Claude Code log (the bundled sample, a 200k model's)", () => {
  it('the log window is 200k', () => {
    expect(getSessionInfo(prepared).windowInference?.windowTokens).toBe(200_000);
  });

  for (const strategy of STRATEGIES) {
    it(`${strategy.id}: no threshold and no window line past the log's 200k window`, () => {
      const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
      const lines = strategy.thresholds(knobs as never);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line.tokens, `${line.id} ${line.label}`).toBeLessThanOrEqual(200_000);
    });
  }

  it("codex: 95% of the log's window effective, and the trigger at 90% of the raw window", () => {
    const codex = STRATEGIES.find((s) => s.id === 'codex')!;
    const { knobs, notes } = codex.getSessionKnobs(getSessionInfo(prepared));
    const byId = new Map(codex.thresholds(knobs as never).map((l) => [l.id, l.tokens]));
    expect(byId.get('window')).toBe(190_000);
    expect(byId.get('auto-compact')).toBe(180_000);
    expect(notes.join('\n')).toContain("95% of the log's 200,000");
  });
});
