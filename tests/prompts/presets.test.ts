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

  it.runIf(hasReference)('Cline presets are verbatim copies of the reference', () => {
    const reference = flat(readFileSync(resolve(REFERENCE, 'cline-compact-implementation.md'), 'utf8'));
    for (const id of ['cline-summarize-task', 'cline-condense']) {
      expect(reference).toContain(flat(requirePreset(id).prompt));
    }
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
