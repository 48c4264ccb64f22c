import { create } from 'zustand';
import { DEFAULT_PRESET_ID, requirePreset } from '../../engine/strategies/prompt-presets';
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL } from '../../engine/summarize/anthropic';
import { OPENAI_DEFAULT_BASE_URL } from '../../engine/summarize/openai-compatible';
import type { CompactionPoint } from '../../engine/summarize/span';

// UI state of the Summaries view: the prompt being edited, its settings, the chosen summarizer,
// the selection in the runs table. Results (runs, prepared requests) live in TanStack Query and
// Dexie, never here. API keys live in key-store.ts.

export type SummarizerChoice = 'builtin' | 'anthropic' | 'openai' | 'recorded';
export type SortKey =
  | 'createdAt'
  | 'name'
  | 'retention'
  | 'summaryTokens'
  | 'tokensIn'
  | 'durationMs'
  | 'costUsd';
type CompareTarget = 'summary' | 'prompt';

interface SummariesState {
  open: boolean;
  point?: CompactionPoint;
  presetId: string;
  prompt: string;
  customInstructions: string;
  systemPrompt: string;
  maxOutputTokens: number;
  /** Empty: the provider's default. */
  temperature?: number;
  keepFromApiCallIndex?: number;
  summarizer: SummarizerChoice;
  anthropicModel: string;
  anthropicBaseUrl: string;
  openaiModel: string;
  openaiBaseUrl: string;
  /** Runs ticked in the table, in the order they were ticked. */
  selectedRunIds: string[];
  sortKey: SortKey;
  sortDescending: boolean;
  filterTranscript: 'current' | 'all';
  filterPreset: string;
  filterSummarizer: string;
  diffInline: boolean;
  diffOnlyChanges: boolean;
  compareTarget: CompareTarget;
  /** Prompt edits of the presets not shown now, by preset id: picking another preset keeps them. */
  edits: Record<string, { prompt: string; systemPrompt: string }>;
  /**
   * The person picked the preset: a session opened later keeps it. Until then each session opens
   * with its own agent's preset (`SummariesInfo.agentPresetId`).
   */
  presetPicked: boolean;

  setOpen(open: boolean): void;
  setPoint(point: CompactionPoint | undefined): void;
  choosePreset(presetId: string): void;
  /** Back to the preset's own prompt and system prompt. */
  resetPrompt(): void;
  set(
    patch: Partial<
      Omit<
        SummariesState,
        'set' | 'setOpen' | 'setPoint' | 'choosePreset' | 'resetPrompt' | 'toggleRun' | 'setSort'
      >
    >,
  ): void;
  toggleRun(id: string): void;
  setSort(key: SortKey): void;
}

const preset = requirePreset(DEFAULT_PRESET_ID);

export const useSummariesStore = create<SummariesState>()((set) => ({
  open: false,
  presetId: preset.id,
  prompt: preset.prompt,
  customInstructions: '',
  systemPrompt: preset.systemPrompt,
  maxOutputTokens: preset.maxOutputTokens,
  summarizer: 'builtin',
  anthropicModel: ANTHROPIC_DEFAULT_MODEL,
  anthropicBaseUrl: ANTHROPIC_DEFAULT_BASE_URL,
  openaiModel: 'llama3.1',
  openaiBaseUrl: OPENAI_DEFAULT_BASE_URL,
  selectedRunIds: [],
  sortKey: 'createdAt',
  sortDescending: true,
  filterTranscript: 'current',
  filterPreset: '',
  filterSummarizer: '',
  diffInline: false,
  diffOnlyChanges: false,
  compareTarget: 'summary',
  edits: {},
  presetPicked: false,

  setOpen: (open) => set({ open }),
  setPoint: (point) => set({ point }),
  choosePreset: (presetId) =>
    set((s) => {
      const current = requirePreset(s.presetId);
      const next = requirePreset(presetId);
      const { [presetId]: kept, ...edits } = s.edits;
      if (s.prompt !== current.prompt || s.systemPrompt !== current.systemPrompt)
        edits[s.presetId] = { prompt: s.prompt, systemPrompt: s.systemPrompt };
      return {
        presetId,
        prompt: kept?.prompt ?? next.prompt,
        systemPrompt: kept?.systemPrompt ?? next.systemPrompt,
        maxOutputTokens: next.maxOutputTokens,
        edits,
      };
    }),
  resetPrompt: () =>
    set((s) => {
      const preset = requirePreset(s.presetId);
      return { prompt: preset.prompt, systemPrompt: preset.systemPrompt };
    }),
  set: (patch) => set(patch),
  toggleRun: (id) =>
    set((s) => ({
      selectedRunIds: s.selectedRunIds.includes(id)
        ? s.selectedRunIds.filter((r) => r !== id)
        : [...s.selectedRunIds, id],
    })),
  setSort: (key) =>
    set((s) => ({ sortKey: key, sortDescending: s.sortKey === key ? !s.sortDescending : true })),
}));
