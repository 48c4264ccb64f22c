import { type PromptAsks, readPromptAsks, toWords } from '../prompts/prompt-asks';
import { parsePromptSections } from '../prompts/sections';
import type { PresetOutput, PresetSection, SectionFill } from '../prompts/types';
import { extractInstructions, MAX_FACTS_PER_CATEGORY, truncateFact } from '../retention/extract';
import { estimateTextTokens } from '../tokens/estimate';
import { clip, computeSpanDigest, type SpanDigest } from './digest';
import { estimateRequestTokens } from './blocks';
import { BUILTIN_MODEL } from './model-ids';
import type { SummarizeOptions, Summarizer, SummaryRequest, SummaryResult } from './types';

// The built-in summarizer: deterministic, offline, instant. It fills the prompt's sections from
// the span's structure (what the user wrote, files, commands, errors, todos) and says plainly
// that no language model wrote it.

export const BUILTIN_NOTICE =
  "Built-in summary by CompactLab: assembled from the transcript's structure (messages, tool calls, errors, todo list), not written by a language model. User messages are quoted verbatim.";

/** Longest user message quoted in full; longer ones are cut with a note. */
const MAX_USER_MESSAGE_CHARS = 4_000;
// As many as the retention score checks, so a full list is never cut short of it.
const MAX_FILES = MAX_FACTS_PER_CATEGORY;
const MAX_COMMANDS = MAX_FACTS_PER_CATEGORY;
const MAX_ERRORS = MAX_FACTS_PER_CATEGORY;
const MAX_NOTES = 8;
const MAX_INTENT_QUOTE_CHARS = 400;
const MAX_CODE_NAMES = 40;
/** Characters of a previous compaction's summary quoted when it opens the span. */
const MAX_PREVIOUS_SUMMARY_CHARS = 1_200;

interface BuiltinOptions {
  /** The preset's sections, used when the prompt's own list cannot be read. */
  sections: PresetSection[];
  output: PresetOutput;
}

function quote(text: string, max = MAX_USER_MESSAGE_CHARS): string {
  const t = text.replace(/[ \t]+$/gm, '').trim();
  const body =
    t.length > max ? `${t.slice(0, max)}… [${(t.length - max).toLocaleString('en-US')} more characters]` : t;
  return `"${body.replace(/\n/g, '\n     ')}"`;
}

function bullets(lines: string[], empty: string): string {
  return lines.length ? lines.map((l) => `   - ${l}`).join('\n') : `   - ${empty}`;
}

const LANGUAGES: Record<string, string> = {
  ts: 'TypeScript',
  tsx: 'TypeScript/React',
  js: 'JavaScript',
  jsx: 'JavaScript/React',
  mjs: 'JavaScript',
  py: 'Python',
  rs: 'Rust',
  go: 'Go',
  java: 'Java',
  kt: 'Kotlin',
  rb: 'Ruby',
  php: 'PHP',
  cs: 'C#',
  c: 'C',
  h: 'C/C++ headers',
  cpp: 'C++',
  swift: 'Swift',
  md: 'Markdown',
  json: 'JSON',
  yaml: 'YAML',
  yml: 'YAML',
  toml: 'TOML',
  sql: 'SQL',
  sh: 'shell',
  css: 'CSS',
  scss: 'SCSS',
  html: 'HTML',
  vue: 'Vue',
  svelte: 'Svelte',
  dart: 'Dart',
};

function describeFile(f: SpanDigest['files'][number]): string {
  const parts: string[] = [];
  if (f.writes) parts.push(`written${f.writes > 1 ? ` ×${f.writes}` : ''}`);
  if (f.edits) parts.push(`edited${f.edits > 1 ? ` ×${f.edits}` : ''}`);
  if (f.reads) parts.push(`read${f.reads > 1 ? ` ×${f.reads}` : ''}`);
  if (f.deletes) parts.push(`deleted${f.deletes > 1 ? ` ×${f.deletes}` : ''}`);
  return `${f.path} — ${parts.join(', ')}`;
}

/** Assistant sentences that explain a cause, a fix or a decision. */
function notes(digest: SpanDigest): string[] {
  const out: string[] = [];
  const pattern =
    /\b(because|root cause|the (issue|problem|bug) (is|was)|fixed|the fix|decided|instead|turns out|found that|caused by)\b/i;
  for (const { text } of digest.assistantTexts) {
    for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
      if (pattern.test(sentence) && sentence.length > 20) out.push(clip(sentence, 240));
    }
  }
  return out.slice(-MAX_NOTES);
}

/** Names the assistant wrote as `code`, most frequent first. */
function codeNames(digest: SpanDigest): string[] {
  const counts = new Map<string, number>();
  for (const { text } of digest.assistantTexts) {
    for (const match of text.matchAll(/`([^`\n]{2,60})`/g)) {
      const name = match[1]!.trim();
      if (!/\s/.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CODE_NAMES)
    .map(([n]) => n);
}

function concepts(digest: SpanDigest): string[] {
  const byLanguage = new Map<string, number>();
  for (const f of digest.files) {
    const ext = /\.([A-Za-z0-9]+)$/.exec(f.path)?.[1]?.toLowerCase();
    const language = ext ? LANGUAGES[ext] : undefined;
    if (language) byLanguage.set(language, (byLanguage.get(language) ?? 0) + 1);
  }
  const lines: string[] = [];
  if (byLanguage.size) {
    lines.push(
      `Languages / formats of the files touched: ${[...byLanguage]
        .sort((a, b) => b[1] - a[1])
        .map(([l, n]) => `${l} (${n})`)
        .join(', ')}`,
    );
  }
  const names = codeNames(digest);
  if (names.length)
    lines.push(`Names in the assistant's code spans: ${names.map((n) => `\`${n}\``).join(', ')}`);
  const tools = Object.entries(digest.toolCounts).sort((a, b) => b[1] - a[1]);
  if (tools.length) lines.push(`Tools used: ${tools.map(([t, n]) => `${t} ×${n}`).join(', ')}`);
  return lines;
}

function fillSection(fill: SectionFill, digest: SpanDigest, instructions: string[]): string {
  const requests = digest.userMessages.filter((m) => m.kind === 'request');
  switch (fill) {
    case 'intent': {
      if (!requests.length)
        return bullets(
          [],
          'No user request in this span (it continues from an earlier summary or tool results only).',
        );
      // Short quotes here: the full texts are under "All user messages" and the next step.
      const first = requests[0]!;
      const lines = [`First request in this span: ${quote(first.text, MAX_INTENT_QUOTE_CHARS)}`];
      if (requests.length > 1)
        lines.push(`Latest request: ${quote(requests.at(-1)!.text, MAX_INTENT_QUOTE_CHARS)}`);
      if (requests.length > 2)
        lines.push(`${requests.length - 2} more requests in between (see "All user messages").`);
      return bullets(lines, '');
    }
    case 'user-messages': {
      const shown = digest.userMessages.map((m) => {
        if (m.kind === 'previous-summary')
          return `(the previous compaction's summary) ${quote(m.text, MAX_PREVIOUS_SUMMARY_CHARS)}`;
        if (m.kind === 'command') return `command: ${m.text}`;
        return quote(m.text);
      });
      return bullets(shown, 'No user messages in this span (tool results only).');
    }
    case 'instructions':
      return bullets(
        instructions.map((i) => quote(i, 400)),
        "No explicit rules or preferences found in the user's messages.",
      );
    case 'concepts':
      return bullets(concepts(digest), 'No tool use in this span.');
    case 'files': {
      const files = digest.files.slice(-MAX_FILES).map(describeFile);
      if (digest.files.length > MAX_FILES)
        files.unshift(`(${digest.files.length - MAX_FILES} earlier files not listed)`);
      return bullets(files, 'No files were read or changed.');
    }
    case 'commands': {
      const commands = digest.commands.slice(-MAX_COMMANDS).map((c) => {
        const shown = truncateFact(c.command);
        const cut = shown.length < c.command.replace(/\s+/g, ' ').trim().length ? '…' : '';
        return `\`${shown}${cut}\`${c.failed ? ' (failed)' : ''}${c.description ? ` — ${c.description}` : ''}`;
      });
      return bullets(commands, 'No shell commands were run.');
    }
    case 'errors': {
      const errors = digest.errors.slice(-MAX_ERRORS).map((e) => {
        const where = `${e.tool}${e.target ? ` ${clip(e.target, 100)}` : ''}`;
        return `${where}: ${e.message}\n     → followed by: ${e.followUp ?? 'nothing yet (the span ends here)'}`;
      });
      return bullets(errors, 'No tool call failed.');
    }
    case 'problem-solving':
    case 'discoveries': {
      const lines = notes(digest);
      const failed = digest.errors.length;
      if (failed)
        lines.unshift(
          `${failed} tool call${failed === 1 ? '' : 's'} failed; see the errors and what followed each.`,
        );
      return bullets(lines, "Nothing in the assistant's messages states a cause, fix or decision.");
    }
    case 'todos': {
      const open = digest.todos.filter((t) => t.status !== 'completed');
      const done = digest.todos.length - open.length;
      const lines = open.map((t) => `[${t.status}] ${t.content}`);
      if (done) lines.push(`${done} item${done === 1 ? '' : 's'} already completed.`);
      return bullets(
        lines,
        digest.todos.length ? 'Every todo item is completed.' : 'No todo list in this span.',
      );
    }
    case 'progress': {
      const changed = digest.files.filter((f) => f.edits || f.writes || f.deletes).map(describeFile);
      const done = digest.todos
        .filter((t) => t.status === 'completed')
        .map((t) => `[completed] ${t.content}`);
      const lines = [...done, ...changed.slice(-MAX_FILES)];
      if (digest.commands.length)
        lines.push(
          `${digest.commands.length} shell commands run (${digest.commands.filter((c) => c.failed).length} failed).`,
        );
      return bullets(lines, 'No files changed and no todo item completed in this span.');
    }
    case 'current-work': {
      const lastText = digest.assistantTexts.at(-1);
      const lines: string[] = [];
      if (lastText) lines.push(`Last assistant message: ${quote(lastText.text, 600)}`);
      if (digest.recentActions.length) lines.push(`Last actions: ${digest.recentActions.join('; ')}`);
      const inProgress = digest.todos.filter((t) => t.status === 'in_progress').map((t) => t.content);
      if (inProgress.length) lines.push(`In progress: ${inProgress.join('; ')}`);
      return bullets(lines, 'Nothing recorded.');
    }
    case 'next-step': {
      const last = digest.lastRequest;
      const lines = last
        ? [`Continue with the user's most recent request, verbatim: ${quote(last.text)}`]
        : ['No user request in this span; continue the last task.'];
      const next =
        digest.todos.find((t) => t.status === 'in_progress') ??
        digest.todos.find((t) => t.status === 'pending');
      if (next) lines.push(`Next todo item: ${next.content}`);
      return bullets(lines, '');
    }
  }
}

/** What every built-in summary covers, whatever the prompt's headings. */
const ALWAYS: SectionFill[] = [
  'user-messages',
  'instructions',
  'files',
  'commands',
  'errors',
  'todos',
  'next-step',
];
const EXTRA_HEADINGS: Record<SectionFill, string> = {
  intent: 'Primary request',
  concepts: 'Technical context',
  files: 'Files read, edited and written',
  commands: 'Commands run',
  errors: 'Errors and follow-up',
  'problem-solving': 'Problem solving',
  'user-messages': 'All user messages',
  instructions: 'User instructions',
  todos: 'Todo list',
  'current-work': 'Current work',
  'next-step': 'Next step',
  progress: 'Progress',
  discoveries: 'Discoveries',
};

/** Renders the built-in summary for a span (pure; also used by tests and the CLI). */
export function renderBuiltinSummary(request: SummaryRequest, options: BuiltinOptions): string {
  // A partial compact keeps the first messages verbatim: only the recent portion is summarized.
  const messages = request.messages.slice(request.retainedMessages ?? 0);
  const digest = computeSpanDigest(messages);
  const instructions = extractInstructions(messages, digest);
  const asks = readPromptAsks(request.prompt);
  const omitted = new Set(asks.omit.map((o) => o.fill));
  const sections = parsePromptSections(request.prompt, options.sections).filter((s) => !omitted.has(s.fill));
  // The sections the retention score checks, when the prompt neither limits the length nor leaves
  // them out: a limit asks for less, not for more.
  if (!asks.limit)
    for (const fill of ALWAYS) {
      if (!omitted.has(fill) && !sections.some((s) => s.fill === fill))
        sections.push({ heading: `${EXTRA_HEADINGS[fill]} (added by the built-in summarizer)`, fill });
    }
  const retained = request.retainedMessages ? ` (after ${request.retainedMessages} retained messages)` : '';
  const followed = describeFollowedAsks(asks);
  const header = asks.limit
    ? `${BUILTIN_SHORT_NOTICE}${followed ? ` ${followed}` : ''}`
    : `${BUILTIN_NOTICE}${followed ? ` ${followed}` : ''}\nSummarized${retained}: ${digest.messages} messages, ${digest.userMessages.length} user messages, ${Object.values(digest.toolCounts).reduce((a, b) => a + b, 0)} tool calls.`;
  const bodies = sections.map((s) => ({
    heading: s.heading,
    body: fillSection(s.fill, digest, instructions),
  }));
  if (!asks.limit) return renderSections(header, bodies, options.output);
  // The wrapper, numbering and markup count as words too: fit, measure, and take off what is over.
  const limit = toWords(asks.limit);
  let text = '';
  for (let budget = limit, round = 0; round < 4; round++) {
    text = renderSections(header, fitToLimit(header, bodies, budget), options.output);
    const over = countWords(text) - limit;
    if (over <= 0) break;
    budget -= over;
  }
  return text;
}

/** The summary in the preset's output shape, from its header and filled sections. */
function renderSections(
  header: string,
  filled: { heading: string; body: string }[],
  output: PresetOutput,
): string {
  if (output.kind === 'xml') {
    const root = output.root;
    const body = filled.map((s) => `  <${tagName(s.heading)}>\n${s.body}\n  </${tagName(s.heading)}>`);
    return `<!-- ${header} -->\n<${root}>\n${body.join('\n')}\n</${root}>`;
  }
  const rendered = filled.map((s, i) =>
    output.kind === 'markdown' ? `## ${s.heading}\n${s.body}` : `${i + 1}. ${s.heading}:\n${s.body}`,
  );
  const body = `${header}\n\n${rendered.join('\n\n')}`;
  switch (output.kind) {
    case 'tag':
      return `<${output.tag}>\n${body}\n</${output.tag}>`;
    case 'tool':
      return `<${output.tool}>\n<context>\n${body}\n</context>\n</${output.tool}>`;
    default:
      return body;
  }
}

/** The notice when the prompt limits the length: what the reader must know, in few words. */
const BUILTIN_SHORT_NOTICE =
  'Built-in summary (CompactLab, no language model; user messages quoted verbatim).';

/** What the summary did of the prompt's asks, said in it ("Followed: …"); '' when it asked none. */
function describeFollowedAsks(asks: PromptAsks): string {
  const parts: string[] = [];
  if (asks.limit) parts.push(`the limit "${asks.limit.asked}"`);
  if (asks.omit.length) parts.push(`left out ${asks.omit.map((o) => `"${o.asked}"`).join(', ')}`);
  return parts.length ? `Followed from the prompt: ${parts.join('; ')}.` : '';
}

const countWords = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;

/** Cuts a text to its first `words` words, marking the cut. */
function cutWords(text: string, words: number): string {
  if (words <= 0) return '   - …';
  let seen = 0;
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (++seen > words) return `${text.slice(0, m.index).trimEnd()} …`;
  }
  return text;
}

/**
 * The sections' bodies cut to `limit` words (the prompt's length limit): the header and the
 * headings count too; each section gets an even share of what is left, a short section giving its
 * unused share to the longer ones, and a body keeps its first words (lines in the digest's order:
 * the most recent and most important first where the fill orders them so).
 */
function fitToLimit(
  header: string,
  sections: { heading: string; body: string }[],
  limit: number,
): { heading: string; body: string }[] {
  if (sections.length === 0) return sections;
  const fixed = countWords(header) + sections.reduce((n, s) => n + countWords(s.heading) + 1, 0);
  let left = Math.max(0, limit - fixed);
  const sizes = sections.map((s) => countWords(s.body));
  const share = new Array<number>(sections.length).fill(0);
  // Smallest first: each takes what it needs up to an even share of what remains.
  const order = sizes.map((_, i) => i).sort((a, b) => (sizes[a] as number) - (sizes[b] as number));
  order.forEach((i, k) => {
    const even = Math.floor(left / (order.length - k));
    share[i] = Math.min(sizes[i] as number, even);
    left -= share[i] as number;
  });
  return sections.map((s, i) =>
    (share[i] as number) >= (sizes[i] as number)
      ? s
      : { ...s, body: cutWords(s.body, (share[i] as number) - 1) },
  );
}

function tagName(heading: string): string {
  return (
    heading
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'section'
  );
}

/** Text deltas the built-in summarizer emits, so the UI shows it the same way as a stream. */
const STREAM_CHUNK_CHARS = 400;

/** The built-in summarizer. */
export function createBuiltinSummarizer(options: BuiltinOptions): Summarizer {
  return {
    kind: 'builtin',
    async summarize(
      request: SummaryRequest,
      { signal, onText }: SummarizeOptions = {},
    ): Promise<SummaryResult> {
      const started = performance.now();
      signal?.throwIfAborted();
      const text = renderBuiltinSummary(request, options);
      if (onText)
        for (let i = 0; i < text.length; i += STREAM_CHUNK_CHARS)
          onText(text.slice(i, i + STREAM_CHUNK_CHARS));
      return {
        text,
        usage: { inputTokens: estimateRequestTokens(request), outputTokens: estimateTextTokens(text.length) },
        model: BUILTIN_MODEL,
        durationMs: performance.now() - started,
        costUsd: 0,
        stopReason: 'end_turn',
      };
    },
  };
}
