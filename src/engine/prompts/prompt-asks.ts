import { getSectionFill } from './sections';
import type { SectionFill } from './types';

// What an edited summarization prompt asks of a summary beyond its sections, as far as a
// summarizer that writes no prose can honour it: a length limit ("keep it under 300 words",
// "at most 2,000 tokens") and parts to leave out ("don't include the commands", "omit errors").
// The built-in summarizer applies these; what it cannot do (tone, rewording, judgement) it says.

interface LengthLimit {
  /** The limit as asked, in its unit. */
  count: number;
  unit: 'words' | 'tokens' | 'characters';
  /** The words of the prompt that asked it. */
  asked: string;
}

export interface PromptAsks {
  limit?: LengthLimit;
  /** Sections the prompt says to leave out, with the words that said it. */
  omit: { fill: SectionFill; asked: string }[];
}

/** Longest stretch of a prompt a pattern below reads past its keyword (keeps the scan linear). */
const PHRASE_CHARS = 80;

/** A count as written ("300", "2,000"): bounded, so no run of digits is read twice over. */
const NUMBER = String.raw`(\d[\d,]{0,9})`;
const UNIT = '(words?|tokens?|characters?|chars?)';
/** "under 300 words", "at most 2,000 tokens", "no more than 500 words", "max 300 words", "≤ 300 words". */
const LIMIT = new RegExp(
  String.raw`\b(?:under|below|at most|no more than|not more than|fewer than|less than|maximum(?: of)?|max\.?|up to|within|limit(?:ed)? to|≤|<=?)\s*(?:about\s+|around\s+|roughly\s+)?${NUMBER}\s*${UNIT}`,
  'gi',
);
/** "300 words or fewer", "300 words max", "300-word summary". */
const LIMIT_AFTER = new RegExp(
  String.raw`\b${NUMBER}[\s-]*${UNIT}\s*(?:or (?:fewer|less)|max(?:imum)?\b|at most|limit)`,
  'gi',
);
const OMIT =
  /\b(?:do not|don't|dont|never|no need to) (?:include|list|mention|add|quote|repeat)|\b(?:omit|leave out|skip|exclude|drop|without)\b/gi;

function toUnit(raw: string): LengthLimit['unit'] {
  const u = raw.toLowerCase();
  return u.startsWith('word') ? 'words' : u.startsWith('token') ? 'tokens' : 'characters';
}

function toCount(raw: string): number {
  return Number(raw.replace(/,/g, ''));
}

/** What `prompt` asks beyond its sections (see the file comment). Linear in the prompt's length. */
export function readPromptAsks(prompt: string): PromptAsks {
  let limit: LengthLimit | undefined;
  for (const pattern of [LIMIT, LIMIT_AFTER]) {
    for (const m of prompt.matchAll(pattern)) {
      const count = toCount(m[1] ?? '');
      if (!Number.isFinite(count) || count <= 0) continue;
      const candidate: LengthLimit = { count, unit: toUnit(m[2] ?? ''), asked: m[0].trim() };
      // The tightest limit a prompt states is the one a summary must meet.
      if (!limit || toWords(candidate) < toWords(limit)) limit = candidate;
    }
  }
  const omit: PromptAsks['omit'] = [];
  for (const m of prompt.matchAll(OMIT)) {
    // What follows the verb, to the end of its clause: "don't include the commands run."
    const rest = prompt.slice(m.index + m[0].length, m.index + m[0].length + PHRASE_CHARS);
    const clause = rest.split(/[.;\n!?]|,\s*(?:but|and then|then)\b/)[0] ?? '';
    if (clause.trim() === '') continue;
    const fill = getOmittedFill(clause);
    if (fill && !omit.some((o) => o.fill === fill))
      omit.push({ fill, asked: `${m[0]}${clause}`.replace(/\s+/g, ' ').trim() });
  }
  return { limit, omit };
}

/** The section a "leave out …" clause names, when it names one clearly. */
function getOmittedFill(clause: string): SectionFill | undefined {
  const words = clause.toLowerCase();
  if (!/[a-z]/.test(words)) return undefined;
  const fill = getSectionFill(words);
  // getSectionFill falls back to `intent`; a clause only omits the intent when it says so.
  return fill === 'intent' && !/request|intent|goal|objective/.test(words) ? undefined : fill;
}

/** A limit in words (a token ~0.75 words, a word ~6 characters with its space: ours, for comparing). */
export function toWords(limit: LengthLimit): number {
  if (limit.unit === 'words') return limit.count;
  if (limit.unit === 'tokens') return Math.floor(limit.count * 0.75);
  return Math.floor(limit.count / 6);
}
