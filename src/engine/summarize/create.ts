import type { PromptPreset } from '../prompts/types';
import { createAnthropicSummarizer } from './anthropic';
import { createBuiltinSummarizer } from './builtin';
import { createOpenAiSummarizer } from './openai-compatible';
import { createRecordedSummarizer, type RecordedCallFigures } from './recorded';
import type { Summarizer } from './types';

/** Which summarizer to use and what it needs. Holds a key only in memory, never in a run. */
export type SummarizerConfig =
  | { kind: 'builtin' }
  | { kind: 'anthropic'; apiKey: string; baseUrl?: string }
  | { kind: 'openai'; baseUrl?: string; apiKey?: string }
  | { kind: 'recorded'; continuation: string; compaction?: RecordedCallFigures };

export const SUMMARIZER_LABELS: Record<SummarizerConfig['kind'], string> = {
  builtin: 'Built-in (offline, no LLM)',
  anthropic: 'Anthropic API',
  openai: 'OpenAI-compatible server',
  recorded: "Recorded (the transcript's own summary)",
};

/** A summarizer for a config; `preset` shapes the built-in summarizer's output. */
export function createSummarizer(
  config: SummarizerConfig,
  preset: Pick<PromptPreset, 'sections' | 'output'>,
): Summarizer {
  switch (config.kind) {
    case 'builtin':
      return createBuiltinSummarizer({ sections: preset.sections, output: preset.output });
    case 'anthropic':
      return createAnthropicSummarizer({ apiKey: config.apiKey, baseUrl: config.baseUrl });
    case 'openai':
      return createOpenAiSummarizer({ baseUrl: config.baseUrl, apiKey: config.apiKey });
    case 'recorded':
      return createRecordedSummarizer(config.continuation, config.compaction);
  }
}
