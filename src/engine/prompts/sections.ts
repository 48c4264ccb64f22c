import { at } from '../assert';
import type { PresetSection, SectionFill } from './types';

// Which sections a (possibly edited) prompt asks for, so the built-in summarizer follows edits:
// a numbered list of headings, XML elements inside an example root, or markdown headings.

/** Heading keywords → what fills the section; first match wins, so specific words come first. */
const FILL_RULES: [RegExp, SectionFill][] = [
  [/user message|task evolution|previous conversation/i, 'user-messages'],
  [/error|fix|mistake/i, 'errors'],
  [/problem.?solving|troubleshoot/i, 'problem-solving'],
  [/next.?step|remaining|to.?do next/i, 'next-step'],
  [/pending|todo|task.?state|blocked|plan/i, 'todos'],
  [/command|recent.?action|file.?system/i, 'commands'],
  [/file|code|artifact|critical data/i, 'files'],
  [/current.?work|recent/i, 'current-work'],
  [/progress|accomplish|current.?state|done|status/i, 'progress'],
  [/instruction|constraint|preference|rule|context to preserve|requirement/i, 'instructions'],
  [/discover|knowledge|learn|insight|highlight|decision/i, 'discoveries'],
  [/concept|technical|technolog|stack/i, 'concepts'],
  [/request|intent|goal|overview|objective|task/i, 'intent'],
];

/** What a heading asks for; `intent` when nothing matches. */
export function getSectionFill(heading: string): SectionFill {
  for (const [pattern, fill] of FILL_RULES) if (pattern.test(heading)) return fill;
  return 'intent';
}

/** Fewest headings that make a list count as the prompt's section list. */
const MIN_SECTIONS = 3;

/** Longest numbered item without a `Heading:` label still read as a heading. */
const MAX_BARE_HEADING = 80;

/** Numbered lists at line start ("1. Heading: …"); the longest run starting at 1 wins, later on ties. */
function numberedSections(prompt: string): string[] {
  const runs: string[][] = [];
  let current: string[] = [];
  for (const line of prompt.split('\n')) {
    const match = /^\s{0,3}(\d{1,2})[.)]\s+(.+)$/.exec(line);
    if (!match) continue;
    const n = Number(match[1]);
    const text = at(match, 2);
    // A long sentence with no `Heading:` label is an instruction closing the list (Cline's "8. You
    // should pay special attention to the most recent user message, …"), not a section.
    if (!text.includes(':') && text.length > MAX_BARE_HEADING) continue;
    const heading = text
      .split(/:\s|:$/)[0]!
      .replace(/\*\*/g, '')
      .trim();
    if (n === 1) {
      if (current.length) runs.push(current);
      current = [heading];
    } else if (n === current.length + 1) current.push(heading);
  }
  if (current.length) runs.push(current);
  let best: string[] = [];
  for (const run of runs) if (run.length >= best.length) best = run;
  return best.map((h) => (h.length > 60 ? h.slice(0, 60) : h));
}

/** Child elements of an XML example (`<state_snapshot><overall_goal>…`). */
function xmlSections(prompt: string): { root: string; headings: string[] } | undefined {
  const root = /<([a-z_]+)>\s*\n\s*<([a-z_]+)>/i.exec(prompt);
  if (!root) return undefined;
  const body = prompt.slice(root.index, prompt.indexOf(`</${root[1]}>`, root.index));
  const headings = [...body.matchAll(/^\s*<([a-z_]+)>/gim)].map((m) => at(m, 1)).filter((h) => h !== root[1]);
  return headings.length >= MIN_SECTIONS ? { root: at(root, 1), headings } : undefined;
}

function markdownSections(prompt: string): string[] {
  return [...prompt.matchAll(/^#{1,4}\s+(.+)$/gm)].map((m) => at(m, 1).trim());
}

/**
 * The sections an edited prompt asks for. Falls back to `fallback` (the preset's own list) when
 * the text has no recognisable list of at least three headings.
 */
export function parsePromptSections(prompt: string, fallback: PresetSection[]): PresetSection[] {
  const xml = xmlSections(prompt);
  const headings = xml?.headings ?? markdownSections(prompt);
  const numbered = numberedSections(prompt);
  const chosen =
    headings.length >= MIN_SECTIONS ? headings : numbered.length >= MIN_SECTIONS ? numbered : undefined;
  if (!chosen) return fallback;
  return chosen.map((heading) => {
    const known = fallback.find((s) => s.heading.toLowerCase() === heading.toLowerCase());
    return known ?? { heading, fill: getSectionFill(heading) };
  });
}
