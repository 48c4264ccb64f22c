import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PRESET_ID,
  getPreset,
  PROMPT_PRESETS,
  requirePreset,
} from '../../src/engine/strategies/prompt-presets';
import { getSectionFill, parsePromptSections } from '../../src/engine/prompts/sections';
import { composePrompt } from '../../src/engine/prompts/types';

const REFERENCE = resolve(__dirname, '../../../shared/reference');
const hasReference = existsSync(REFERENCE);
if (!hasReference) console.warn(`preset source checks skipped: ${REFERENCE} is absent`);

/** Whitespace-insensitive form, so the reference's hard line wraps do not matter. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('prompt presets', () => {
  it('lists every family the issue names, once each id', () => {
    const ids = PROMPT_PRESETS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'claude-code-full',
        'claude-code-partial',
        'claude-code-subagent',
        'cline-summarize-task',
        'cline-condense',
        'codex',
        'opencode',
        'gemini-cli',
        'roo',
        'anthropic-sdk',
      ]),
    );
    expect(getPreset(DEFAULT_PRESET_ID)).toBeDefined();
    expect(() => requirePreset('nope')).toThrow(/Known presets: claude-code-full/);
  });

  it.each(PROMPT_PRESETS.map((p) => [p.id, p]))(
    '%s has a label, source, prompt, system prompt and sections',
    (_id, preset) => {
      expect(preset.label).not.toBe('');
      expect(preset.prompt.length).toBeGreaterThan(200);
      expect(preset.systemPrompt.length).toBeGreaterThan(10);
      expect(preset.sections.length).toBeGreaterThanOrEqual(5);
      expect(preset.maxOutputTokens).toBeGreaterThan(1000);
      // Its source: a section of docs/sources.md (or, until scripts/rewrite-citations.mjs runs, the
      // reference note beside the project).
      expect(preset.source).toMatch(/docs\/sources\.md#|shared\/(reference|research)\//);
      // A preset written from a documented shape says so in its source note.
      if (preset.fidelity === 'own-words') expect(preset.source).toMatch(/wording is CompactLab's/);
      // What people read names no file, path or minified identifier.
      expect(preset.description.length).toBeGreaterThan(40);
      expect(preset.description).not.toMatch(/[`\\]|\w\/\w|\.(ts|md|txt)\b|\$[A-Z]/);
    },
  );

  it.each(PROMPT_PRESETS.map((p) => [p.id, p]))(
    '%s: the built-in reads back the sections its own prompt lists',
    (_id, preset) => {
      const parsed = parsePromptSections(preset.prompt, []);
      expect(parsed.map((s) => s.heading)).toEqual(preset.sections.map((s) => s.heading));
    },
  );

  it.runIf(hasReference)('Cline condense preset is a verbatim copy of the reference', () => {
    const reference = flat(readFileSync(resolve(REFERENCE, 'cline-compact-implementation.md'), 'utf8'));
    expect(reference).toContain(flat(requirePreset('cline-condense').prompt));
    // The reference quotes an abridged summarize_task that no Cline release sent (issue 19): the
    // presets are Cline's own text per release, not the reference's.
    expect(reference).not.toContain(flat(requirePreset('cline-summarize-task').prompt));
  });

  it("Cline's summarize_task presets: 7, 8 and 9 sections at v3.25.0, v3.28.0 and v3.34.0", () => {
    const read = (id: string) => parsePromptSections(requirePreset(id).prompt, []).map((s) => s.heading);
    const v325 = read('cline-summarize-task-v3.25');
    const v328 = read('cline-summarize-task-v3.28');
    const v334 = read('cline-summarize-task');
    expect(v325).toHaveLength(7);
    expect(v325.at(-1)).toBe('Optional Next Step');
    expect(v328).toHaveLength(8);
    expect(v328).toContain('Task Evolution');
    expect(v328).not.toContain('Required Files');
    expect(v334).toHaveLength(9);
    expect(v334.slice(-3)).toEqual(['Current Work', 'Next Step', 'Required Files']);
    // What else changed: attempt_completion offered from v3.28.0, PLAN/ACT wording from v3.33.0.
    expect(requirePreset('cline-summarize-task-v3.25').prompt).not.toMatch(/attempt_completion/);
    expect(requirePreset('cline-summarize-task-v3.28').prompt).toMatch(/attempt_completion/);
    expect(requirePreset('cline-summarize-task').prompt).toMatch(/whether you are in PLAN or ACT mode/);
    expect(requirePreset('cline-sdk-summary').sections.map((s) => s.heading)).toEqual([
      'Goal',
      'State',
      'Highlights',
      'Next',
      'Files',
    ]);
  });

  it.runIf(hasReference)('Claude Code presets come from the v2.1.68 reference', () => {
    const reference = flat(readFileSync(resolve(REFERENCE, 'claude-code-compaction-v2.1.68.txt'), 'utf8'));
    expect(reference).toContain(flat(requirePreset('claude-code-subagent').prompt));
    expect(reference).toContain(flat(requirePreset('claude-code-full').systemPrompt));
    const full = requirePreset('claude-code-full').prompt;
    expect(reference).toContain(flat(full.slice(0, full.indexOf('Before providing'))));
  });

  it('maps headings to what fills them', () => {
    expect(getSectionFill('All user messages')).toBe('user-messages');
    expect(getSectionFill('Errors and fixes')).toBe('errors');
    expect(getSectionFill('Optional Next Step')).toBe('next-step');
    expect(getSectionFill('Pending Tasks')).toBe('todos');
    expect(getSectionFill('file_system_state')).toBe('commands');
    expect(getSectionFill('Relevant files / directories')).toBe('files');
    expect(getSectionFill('active_constraints')).toBe('instructions');
    expect(getSectionFill('Something else')).toBe('intent');
  });

  it("falls back to the preset's sections when an edited prompt has no list", () => {
    const fallback = requirePreset('codex').sections;
    expect(parsePromptSections('Just summarize it.', fallback)).toBe(fallback);
  });

  it("composes custom instructions like Claude Code's R91", () => {
    expect(composePrompt('P', 'Keep the SQL.')).toBe('P\n\nAdditional Instructions:\nKeep the SQL.');
    expect(composePrompt('P', '')).toBe('P');
  });
});
