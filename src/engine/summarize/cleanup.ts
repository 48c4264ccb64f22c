import { cleanSummaryTags } from '../compact/clean-summary';
import type { PresetOutput } from '../prompts/types';

// What a summarizer's raw answer becomes before it is stored, scored and measured.

/** The text the continuation would carry, for a preset's output shape. */
export function cleanupSummary(raw: string, output: PresetOutput): string {
  switch (output.kind) {
    case 'tag':
      return cleanSummaryTags(raw);
    case 'tool': {
      const context = raw.match(/<context>([\s\S]*?)(<\/context>|$)/);
      const body = context ? context[1]! : raw.replace(/<thinking>[\s\S]*?<\/thinking>/g, '');
      return body.replace(/\n\n+/g, '\n\n').trim();
    }
    case 'xml':
      return raw
        .replace(/<scratchpad>[\s\S]*?<\/scratchpad>/g, '')
        .replace(/\n\n+/g, '\n\n')
        .trim();
    case 'markdown':
      return raw.trim();
  }
}

/** Opening of Claude Code's continuation message (`T91` / v2.1.68 `JQ6` (docs/sources.md#cc-continuation)). */
const CONTINUATION_OPENING =
  /^This session is being continued from a previous conversation that ran out of context\.[^\n]*\n+/;
/** Trailers `JQ6` may append after the summary. */
const CONTINUATION_TRAILERS = [
  /\n+If you need specific details from before compaction[\s\S]*$/,
  /\n+Recent messages are preserved verbatim\.?\s*$/,
  /\n+Please continue the conversation from where we left (it )?off[\s\S]*$/,
];

/** The summary inside a recorded continuation message (the `isCompactSummary` user text). */
export function getRecordedSummaryBody(continuation: string): string {
  let body = continuation.replace(CONTINUATION_OPENING, '');
  for (let pass = 0; pass < 3; pass++)
    for (const trailer of CONTINUATION_TRAILERS) body = body.replace(trailer, '');
  body = body.trim();
  // `T91` appends a "." right after the summary (so a summary ending in "." ends in "..").
  return body.endsWith('.') ? body.slice(0, -1).trimEnd() : body;
}
