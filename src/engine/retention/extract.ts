import { at } from '../assert';
import { DIALECT_INFOS } from '../parse/dialects/descriptors';
import { getBlocks, isTextBlock } from '../summarize/blocks';
import { computeSpanDigest, readUserText, type SpanDigest, stripReminders } from '../summarize/digest';
import type { RequestMessage } from '../summarize/types';
import type { FactCategory, RetentionFact } from './types';

// What a continuation needs from the summarized span, in the categories users measure
// (docs/sources.md#user-asks item 9: file paths, commands, numbers, decisions/instructions).

/** Facts kept per category: enough to judge, few enough to read. */
export const MAX_FACTS_PER_CATEGORY = 80;
/** Longest text kept for one fact; a longer text keeps its start (no ellipsis, so it still matches). */
const MAX_FACT_CHARS = 300;

/** The first `max` characters of a one-line form of `text`, cut at a word boundary when possible. */
export function truncateFact(text: string, max = MAX_FACT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return space > max * 0.6 ? cut.slice(0, space) : cut;
}

/** Words that make a user sentence a rule or instruction. */
const RULE_MARKERS =
  /\b(always|never|don'?t|do not|doesn'?t need|must(n'?t)?|should(n'?t)?|make sure|ensure|prefer|avoid|instead|only|remember|important|from now on|no more|stop|rule|keep)\b|必须|不要|不能|一定|总是|永远|禁止|只能|务必|记住/i;

/** Paths written in free text: at least one slash (or backslash) and a file extension. */
const TEXT_PATH =
  /(?:^|[\s`'"([])((?:[A-Za-z]:[\\/]|~\/|\.{1,2}\/|\/)?(?:[\w@.+-]+[\\/])+[\w@+-][\w@.+-]*\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),:;\]]|\.(?:\s|$))/g;
/** `code spans` in text. */
const CODE_SPAN = /`([^`\n]{2,80})`/g;
/** camelCase, PascalCase with an inner capital, snake_case and SCREAMING_CASE identifiers. */
const IDENTIFIER =
  /\b([a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)\b/g;
/** Versions, numbers of 3+ digits, numbers with a unit or decimal, issue refs, hex hashes. */
const NUMBER =
  /(?:^|[^\w.])(v?\d+\.\d+(?:\.\d+)*|#\d+|\d{3,}(?:[,_]\d{3})*(?:\.\d+)?\s?(?:k|m|ms|s|px|kb|mb|gb|%)?|\d+(?:\.\d+)?\s?(?:k|ms|px|kb|mb|gb|%)|[0-9a-f]{7,40})(?=$|[^\w])/gi;

function add(list: RetentionFact[], seen: Set<string>, fact: RetentionFact): void {
  const key = `${fact.category}\u0000${fact.text.toLowerCase()}`;
  if (seen.has(key) || fact.text.trim() === '') return;
  seen.add(key);
  list.push(fact);
}

/** A path's last two segments, when the path has more (summaries often write paths relative). */
function pathVariants(path: string): string[] | undefined {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.length > 2 ? [parts.slice(-2).join('/')] : undefined;
}

/** A command without `cd … &&` in front and pipes to head/tail/grep or redirections behind. */
export function getCommandCore(command: string): string {
  let core = command.split('\n')[0]!.trim();
  core = core.replace(/^(cd\s+\S+\s*&&\s*)+/, '');
  core = core.replace(/\s*(2>&1|>\s*\/dev\/null)\s*/g, ' ');
  core = core.replace(/\s*\|\s*(head|tail|grep|less|wc|sort|cat)\b.*$/, '');
  return core.trim();
}

function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z"'`(])/)
    .map((s) => s.replace(/^[-*•\d.)\s]+/, '').trim())
    .filter((s) => s.length >= 8);
}

/** Rules from the project instructions an agent pasted into a user text (Claude Code's CLAUDE.md). */
function memoryRules(raw: string): string[] {
  const rules: string[] = [];
  for (const dialect of DIALECT_INFOS) {
    for (const body of dialect.transcript?.projectInstructions?.(raw) ?? []) {
      for (const line of body.split('\n')) {
        const rule = line.replace(/^[-*•\d.)\s]+/, '').trim();
        if (rule.length >= 8 && RULE_MARKERS.test(rule)) rules.push(rule);
      }
    }
  }
  return rules;
}

function textsOf(messages: RequestMessage[], role: 'user' | 'assistant'): string[] {
  const texts: string[] = [];
  for (const m of messages) {
    if (m.role !== role) continue;
    for (const b of getBlocks(m)) if (isTextBlock(b)) texts.push(b.text);
  }
  return texts;
}

/** The user's explicit instructions and rules, verbatim (sentences with a rule word, project-file rules). */
export function extractInstructions(
  messages: RequestMessage[],
  digest: SpanDigest = computeSpanDigest(messages),
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (s: string) => {
    const key = s.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(s);
    }
  };
  for (const raw of textsOf(messages, 'user')) for (const rule of memoryRules(raw)) push(rule);
  for (const m of digest.userMessages) {
    if (m.kind !== 'request') continue;
    for (const sentence of sentencesOf(m.text))
      if (RULE_MARKERS.test(sentence) && sentence.length <= 400) push(sentence);
  }
  return out;
}

/** Extracts the facts of a span, in span order within each category. */
export function extractRetentionFacts(messages: RequestMessage[]): RetentionFact[] {
  const digest = computeSpanDigest(messages);
  const byCategory = new Map<FactCategory, RetentionFact[]>();
  const seen = new Set<string>();
  const list = (c: FactCategory): RetentionFact[] => {
    const existing = byCategory.get(c);
    if (existing) return existing;
    const created: RetentionFact[] = [];
    byCategory.set(c, created);
    return created;
  };

  for (const file of digest.files)
    add(list('path'), seen, { category: 'path', text: file.path, variants: pathVariants(file.path) });
  const userTexts = digest.userMessages.filter((m) => m.kind === 'request').map((m) => m.text);
  for (const text of userTexts) {
    for (const match of text.matchAll(TEXT_PATH)) {
      add(list('path'), seen, { category: 'path', text: at(match, 1), variants: pathVariants(at(match, 1)) });
    }
  }

  for (const run of digest.commands) {
    const text = truncateFact(run.command.split('\n')[0]!);
    const core = getCommandCore(run.command);
    add(list('command'), seen, {
      category: 'command',
      text,
      variants: core && core !== text ? [core] : undefined,
    });
  }
  for (const m of digest.userMessages) {
    if (m.kind === 'command' && m.text.startsWith('! '))
      add(list('command'), seen, { category: 'command', text: m.text.slice(2) });
  }

  const assistantTexts = textsOf(messages, 'assistant');
  for (const text of [...userTexts, ...assistantTexts]) {
    for (const match of text.matchAll(CODE_SPAN)) {
      const span = at(match, 1).trim();
      // Paths and commands are counted in their own categories.
      if (span.split(/\s+/).length <= 4 && !/[\\/]/.test(span))
        add(list('identifier'), seen, { category: 'identifier', text: span });
    }
  }
  for (const text of userTexts) {
    for (const match of text.matchAll(IDENTIFIER))
      add(list('identifier'), seen, { category: 'identifier', text: at(match, 1) });
    for (const match of text.matchAll(NUMBER))
      add(list('identifier'), seen, { category: 'identifier', text: at(match, 1).trim() });
  }

  for (const error of digest.errors) {
    add(list('error'), seen, { category: 'error', text: truncateFact(error.message.split(' ⏎ ')[0]!) });
  }

  for (const rule of extractInstructions(messages, digest)) {
    add(list('instruction'), seen, { category: 'instruction', text: truncateFact(stripReminders(rule)) });
  }

  if (digest.lastRequest) {
    const read = readUserText(digest.lastRequest.text);
    if (read) add(list('last-request'), seen, { category: 'last-request', text: truncateFact(read.text) });
  }

  const facts: RetentionFact[] = [];
  for (const category of ['path', 'command', 'identifier', 'error', 'instruction', 'last-request'] as const) {
    // The most recent ones: what a continuation is most likely to need.
    facts.push(...(byCategory.get(category) ?? []).slice(-MAX_FACTS_PER_CATEGORY));
  }
  return facts;
}
