import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROMPT_PRESETS } from '../../src/engine/strategies/prompt-presets';
import { STRATEGY_DESCRIPTORS } from '../../src/engine/strategies/descriptors';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { REPLAY_FIXTURES } from '../replay/replay-fixtures';
import { STRATEGY_VARIANTS } from '../replay/strategy-variants';

// What a strategy is made of (issue 17): its folder `src/engine/strategies/<id>/` (index.ts the
// descriptor, its helpers, knobs, prompt presets and event detail beside it), one registry line,
// and under tests/ its rules test, its golden dumps and a naive reference (or a stated reason for
// none). The checks below go by the registry: a strategy added without one of these fails here,
// and a strategy's folder that reads another's, or core code that reads a strategy's folder,
// fails too.

const ROOT = resolve(__dirname, '../..');
const ENGINE = join(ROOT, 'src/engine');
const STRATEGIES_DIR = join(ENGINE, 'strategies');
const TESTS = join(ROOT, 'tests');
const ids = STRATEGIES.map((s) => s.id);

/** Rules tests named otherwise than `tests/replay/<id>-strategy.test.ts`. */
const RULES_TESTS: Record<string, string> = {
  // Its rules are spread over several (replay, thresholds, microcompact, failure paths, same turn).
  'claude-code': 'tests/replay/failure-paths.test.ts',
  'api-clear-tool-uses': 'tests/replay/anthropic-api-strategy.test.ts',
  'anthropic-sdk-compaction': 'tests/replay/anthropic-api-strategy.test.ts',
};

/** Strategies with no naive reference (`tests/replay/reference/<id>.ts`): what none models yet. */
const NO_REFERENCE: Record<string, string> = {
  'api-clear-tool-uses':
    "the API's context_management edits (clear_thinking's kept turns, clear_tool_uses' trigger, keep, clear_at_least, exclude_tools, compact_20260112's trigger)",
  'anthropic-sdk-compaction':
    "the Anthropic SDK's compactionControl (a check only after tool calls, the whole history to one summary capped at 4,096 tokens)",
  codex: "Codex CLI's compaction (kept user messages under a token budget)",
  'gemini-cli':
    "Gemini CLI's character split, function-response budget and probe; its rules are checked in tests/replay/gemini-cli-strategy.test.ts",
};

const goldenNames = (id: string): string[] =>
  REPLAY_FIXTURES.slice(0, 3).map(
    ({ name }) => `tests/golden/replay/${id === 'claude-code' ? name : `${name}.${id}`}.txt`,
  );

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative imports of a file, resolved to paths under src/ (no extension). */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
    resolve(dirname(file), m[1]!),
  );
}

/** The strategy folder a path lies in (`cline` for …/strategies/cline/x), or undefined. */
function strategyFolderOf(path: string): string | undefined {
  const rel = relative(STRATEGIES_DIR, path);
  if (rel.startsWith('..') || rel === '') return undefined;
  // `…/strategies/cline/x`, or `…/strategies/cline` itself (its index.ts).
  if (rel.includes(sep) || (existsSync(path) && statSync(path).isDirectory())) return rel.split(sep)[0];
  return undefined;
}

describe('every registered strategy has its parts', () => {
  it('ids are unique', () => expect(new Set(ids).size).toBe(ids.length));

  it.each(ids)('%s: its folder, whose index.ts exports the registered descriptor', async (id) => {
    const index = join(STRATEGIES_DIR, id, 'index.ts');
    expect(existsSync(index), `src/engine/strategies/${id}/index.ts`).toBe(true);
    const exports: Record<string, unknown> = await import(index);
    expect(Object.values(exports)).toContain(STRATEGIES.find((s) => s.id === id));
  });

  it('the descriptors list (what the page imports) names the same strategies in the same order', () => {
    expect(STRATEGY_DESCRIPTORS.map((d) => d.id)).toEqual(ids);
  });

  it.each(ids)(
    '%s: its descriptor.ts exports the registered descriptor, which the strategy spreads',
    async (id) => {
      const file = join(STRATEGIES_DIR, id, 'descriptor.ts');
      expect(existsSync(file), `src/engine/strategies/${id}/descriptor.ts`).toBe(true);
      const descriptor = STRATEGY_DESCRIPTORS.find((d) => d.id === id)!;
      const exports: Record<string, unknown> = await import(file);
      expect(Object.values(exports)).toContain(descriptor);
      const strategy = STRATEGIES.find((s) => s.id === id)! as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(descriptor)) expect(strategy[key], key).toBe(value);
    },
  );

  it.each(ids)('%s: a rules test that runs it or reads its folder', (id) => {
    const file = RULES_TESTS[id] ?? `tests/replay/${id}-strategy.test.ts`;
    expect(existsSync(join(ROOT, file)), file).toBe(true);
    const readsFolder = importsOf(join(ROOT, file)).some((t) => strategyFolderOf(t) === id);
    const namesId = readFileSync(join(ROOT, file), 'utf8').includes(`'${id}'`);
    expect(readsFolder || namesId, `${file} names '${id}' or imports strategies/${id}/`).toBe(true);
  });

  it.each(ids)('%s: golden dumps on the replay fixtures and knob variants', (id) => {
    for (const name of goldenNames(id)) expect(existsSync(join(ROOT, name)), name).toBe(true);
    expect(STRATEGY_VARIANTS[id]?.length, `STRATEGY_VARIANTS['${id}']`).toBeGreaterThan(0);
  });

  // A test file, or the agreement module its unit and reference tests share (naive-agreement.ts).
  const tests = walk(join(TESTS, 'replay')).filter(
    (f) => f.endsWith('.test.ts') || f.endsWith('-agreement.ts'),
  );
  for (const id of ids) {
    const reference = join(TESTS, 'replay/reference', `${id}.ts`);
    const reason = NO_REFERENCE[id];
    if (reason !== undefined) {
      it.skip(`${id}: a naive reference — none models ${reason} yet`, () => {});
      it(`${id}: states no reference and has none`, () => expect(existsSync(reference)).toBe(false));
      continue;
    }
    it(`${id}: a naive reference (tests/replay/reference/${id}.ts) that a test runs`, () => {
      expect(existsSync(reference), relative(ROOT, reference)).toBe(true);
      const users = tests.filter((t) => importsOf(t).includes(reference.replace(/\.ts$/, '')));
      expect(users.length, `a test importing ./reference/${id}`).toBeGreaterThan(0);
    });
  }

  it('no reference or stated skip for a strategy that is not registered', () => {
    const references = readdirSync(join(TESTS, 'replay/reference')).map((f) => f.replace(/\.ts$/, ''));
    expect(references.filter((r) => !ids.includes(r))).toEqual([]);
    expect(Object.keys({ ...NO_REFERENCE, ...RULES_TESTS }).filter((r) => !ids.includes(r))).toEqual([]);
  });
});

describe('a strategy folder holds only its own files', () => {
  const folders = readdirSync(STRATEGIES_DIR).filter((f) => statSync(join(STRATEGIES_DIR, f)).isDirectory());

  it('every folder is a registered strategy', () => {
    expect(folders.filter((f) => !ids.includes(f))).toEqual([]);
  });

  it('no folder reads another strategy’s folder, the registry or the presets list', () => {
    const violations: string[] = [];
    for (const folder of folders)
      for (const file of walk(join(STRATEGIES_DIR, folder)))
        for (const target of importsOf(file)) {
          const other = strategyFolderOf(target);
          const shared = relative(STRATEGIES_DIR, target);
          if (
            (other !== undefined && other !== folder) ||
            shared === 'registry' ||
            shared === 'prompt-presets'
          )
            violations.push(`${relative(ENGINE, file)} → ${relative(ENGINE, target)}`);
        }
    expect(violations).toEqual([]);
  });

  /**
   * Engine code outside strategies/ that reads a strategy's folder (not its descriptor through the
   * registry), and why. Anything else is a family's special case in the core.
   */
  const REACH_INS: Record<string, string> = {
    'learn/explainers.ts → strategies/claude-code/knobs':
      'learn mode explains Claude Code’s thresholds with its knob type (the learn helper’s area)',
    'learn/summary-steps.ts → strategies/boundary-scoring/detail':
      'the walk counts the scored splits through boundary scoring’s own accessor',
  };

  it('the core reads no strategy’s folder (the stated reach-ins aside)', () => {
    const found: string[] = [];
    for (const file of walk(ENGINE)) {
      if (!relative(STRATEGIES_DIR, file).startsWith('..')) continue;
      for (const target of importsOf(file))
        if (strategyFolderOf(target) !== undefined)
          found.push(`${relative(ENGINE, file)} → ${relative(ENGINE, target)}`);
    }
    expect(found.sort()).toEqual(Object.keys(REACH_INS).sort());
  });
});

describe('prompt presets come from the strategies', () => {
  it('ids are unique and each preset names the strategy that lists it', () => {
    const presetIds = PROMPT_PRESETS.map((p) => p.id);
    expect(new Set(presetIds).size).toBe(presetIds.length);
    for (const s of STRATEGIES)
      for (const p of s.promptPresets ?? []) expect(p.family, `${p.id} (${s.id})`).toBe(s.id);
  });

  it('a strategy’s presets are files of its own folder', () => {
    for (const s of STRATEGIES) {
      const dir = join(STRATEGIES_DIR, s.id);
      const text = walk(dir)
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
      for (const p of s.promptPresets ?? [])
        expect(text, `${p.id} in strategies/${s.id}/`).toContain(`id: '${p.id}'`);
    }
  });
});
