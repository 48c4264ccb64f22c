import { describeModels } from '../parse/meta-words';
import type { ConversationTurn } from '../query/conversation';
import { maskText, type RedactionSettings } from '../redact/mask';
import { escapeHtml } from './escape-html';
import { makeInert } from './inert-text';
import { escapeMarkdownLinks, type MdInline, parseMarkdown } from './markdown-lite';

// The whole transcript as a conversation (query/conversation.ts), in Markdown and as one HTML
// file. The HTML has no script and loads nothing (a CSP meta tag forbids it); every transcript
// text is masked when redacting, stripped of control sequences, and escaped; Markdown in it is
// read by markdown-lite.ts and written as escaped elements (links only to http, https, mailto,
// with rel="noopener noreferrer nofollow"; images as their alt text). In the Markdown file,
// prose keeps its Markdown with `<` and `&` escaped (no raw HTML reaches a renderer) and no link
// or image able to form (`escapeMarkdownLinks`), and tool inputs and results sit in fences longer
// than any backtick run they hold. Bidi and zero-width characters are shown as `⟨U+202E⟩`.

interface TranscriptHeader {
  name: string;
  agent: string;
  /** The models that answered; `setModels`, those the log set when none answered (meta-words.ts). */
  models: string[];
  setModels?: string[];
}

interface TranscriptOptions {
  redaction?: RedactionSettings;
}

const ROLE_LABELS: Record<ConversationTurn['role'], string> = {
  user: 'User',
  assistant: 'Assistant',
  summary: 'Compaction summary',
};

function formatTime(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms)
    ? ''
    : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function turnTitle(turn: ConversationTurn, clean: (s: string) => string): string {
  const where = turn.depth > 0 ? ` (subagent${turn.depth > 1 ? ` ×${turn.depth}` : ''})` : '';
  const time = formatTime(turn.timestampMs);
  return clean(`${ROLE_LABELS[turn.role]}${where}${time ? ` · ${time}` : ''} · entry ${turn.entryIndex + 1}`);
}

/** A fence longer than any run of backticks in `text` (at least three). */
function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

const escapeMdProse = (text: string) =>
  escapeMarkdownLinks(text.replace(/&/g, '&amp;').replace(/</g, '&lt;'));

function makeClean(options: TranscriptOptions) {
  return (text: string) => makeInert(options.redaction ? maskText(text, options.redaction) : text);
}

function cut(chars: number | undefined, shown: number): string {
  return chars !== undefined && chars > shown ? ` [${chars - shown} more characters not shown]` : '';
}

export function formatTranscriptMarkdown(
  header: TranscriptHeader,
  turns: readonly ConversationTurn[],
  options: TranscriptOptions = {},
): string {
  return transcriptMarkdownLines(header, turns, options).join('\n');
}

/**
 * The Markdown transcript as the lines it is written in (a line may hold newlines of its own):
 * the page writes them into a file without joining them, as a whole 1 GB session's text is past
 * the longest string a JavaScript engine holds (about 512 M characters in V8).
 */
export function transcriptMarkdownLines(
  header: TranscriptHeader,
  turns: readonly ConversationTurn[],
  options: TranscriptOptions = {},
): string[] {
  const clean = makeClean(options);
  const out: string[] = [
    `# Transcript: ${escapeMdProse(clean(header.name))}`,
    '',
    `${escapeMdProse(clean(header.agent))} · ${escapeMdProse(clean(describeModels(header) ?? 'no model named'))} · ${turns.length} messages`,
    '',
  ];
  for (const turn of turns) {
    out.push(`## ${escapeMdProse(turnTitle(turn, clean))}`, '');
    for (const t of turn.texts) {
      const text = escapeMdProse(clean(t.text)) + cut(t.chars, t.text.length);
      out.push(t.thinking ? `> *Thinking:* ${text.replace(/\n/g, '\n> ')}` : text, '');
    }
    if (turn.images > 0) out.push(`*[${turn.images} image${turn.images > 1 ? 's' : ''}]*`, '');
    for (const tool of turn.tools) {
      const input = clean(tool.input);
      out.push(`**Tool call: ${escapeMdProse(clean(tool.name))}** ${escapeMdProse(clean(tool.summary))}`, '');
      const inFence = fenceFor(input);
      out.push(`${inFence}json`, input, inFence, '');
      if (tool.result === undefined) out.push('*No result in the transcript.*', '');
      else {
        const result = clean(tool.result);
        const fence = fenceFor(result);
        out.push(
          `${tool.isError ? 'Error result' : 'Result'}${cut(tool.resultChars, tool.result.length)}:`,
          '',
          fence,
          result,
          fence,
          '',
        );
      }
    }
  }
  return out;
}

const STYLE = `
:root { color-scheme: light dark; }
body { font: 14px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 900px; padding: 16px 24px 48px; color: #111827; background: #fff; }
@media (prefers-color-scheme: dark) { body { color: #e5e7eb; background: #111827; } pre, code { background: #1f2937 !important; } .turn { border-color: #374151 !important; } }
h1 { font-size: 20px; } .turn { border-left: 3px solid #d1d5db; padding: 2px 12px; margin: 14px 0; }
.turn.user { border-color: #1f6fb8; } .turn.assistant { border-color: #6b7280; } .turn.summary { border-color: #a86400; }
.turn h2 { font-size: 13px; color: #6b7280; margin: 4px 0; font-weight: 600; }
.depth-1 { margin-left: 24px; } .depth-2 { margin-left: 48px; } .depth-3 { margin-left: 72px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f4f6; padding: 8px; font-size: 12px; max-height: 480px; overflow: auto; }
code { background: #f3f4f6; padding: 0 3px; border-radius: 3px; font-size: 12px; }
.thinking { color: #6b7280; font-style: italic; } .muted { color: #6b7280; } .error { color: #c62f2c; }
details { margin: 6px 0; } summary { cursor: pointer; } p { margin: 6px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

function inlineHtml(inl: readonly MdInline[]): string {
  return inl
    .map((n) => {
      switch (n.t) {
        case 'text':
          return escapeHtml(n.s);
        case 'code':
          return `<code>${escapeHtml(n.s)}</code>`;
        case 'strong':
          return `<strong>${escapeHtml(n.s)}</strong>`;
        case 'em':
          return `<em>${escapeHtml(n.s)}</em>`;
        case 'image':
          return `<span class="muted">[image: ${escapeHtml(n.alt)}]</span>`;
        case 'link':
          return n.href
            ? `<a href="${escapeHtml(n.href)}" rel="noopener noreferrer nofollow">${escapeHtml(n.s)}</a>`
            : escapeHtml(n.s);
      }
      return '';
    })
    .join('');
}

/** Markdown text as escaped HTML elements (markdown-lite.ts). */
function renderMarkdownHtml(text: string): string {
  return parseMarkdown(text)
    .map((b) => {
      switch (b.t) {
        case 'p':
          return `<p>${inlineHtml(b.inl)}</p>`;
        case 'h':
          return `<p><strong>${inlineHtml(b.inl)}</strong></p>`;
        case 'code':
          return `<pre>${escapeHtml(b.s)}</pre>`;
        case 'list': {
          const tag = b.ordered ? 'ol' : 'ul';
          return `<${tag}>${b.items.map((i) => `<li>${inlineHtml(i)}</li>`).join('')}</${tag}>`;
        }
        case 'quote':
          return `<blockquote>${inlineHtml(b.inl)}</blockquote>`;
        case 'hr':
          return '<hr>';
      }
      return '';
    })
    .join('\n');
}

export function formatTranscriptHtml(
  header: TranscriptHeader,
  turns: readonly ConversationTurn[],
  options: TranscriptOptions = {},
): string {
  return transcriptHtmlLines(header, turns, options).join('\n');
}

/** The HTML transcript as the lines it is written in, as `transcriptMarkdownLines`. */
export function transcriptHtmlLines(
  header: TranscriptHeader,
  turns: readonly ConversationTurn[],
  options: TranscriptOptions = {},
): string[] {
  const clean = makeClean(options);
  const t = (s: string) => escapeHtml(clean(s));
  const out: string[] = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Transcript: ${t(header.name)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>Transcript: ${t(header.name)}</h1>`,
    `<p class="muted">${t(header.agent)} · ${t(describeModels(header) ?? 'no model named')} · ${turns.length} messages. Written by CompactLab; links are not followed unless clicked.</p>`,
  ];
  for (const turn of turns) {
    out.push(`<section class="turn ${turn.role} depth-${Math.min(3, turn.depth)}">`);
    out.push(`<h2>${escapeHtml(turnTitle(turn, clean))}</h2>`);
    for (const x of turn.texts) {
      const more = cut(x.chars, x.text.length);
      const body = renderMarkdownHtml(clean(x.text));
      out.push(x.thinking ? `<details class="thinking"><summary>Thinking</summary>${body}</details>` : body);
      if (more) out.push(`<p class="muted">${escapeHtml(more)}</p>`);
    }
    if (turn.images > 0) out.push(`<p class="muted">[${turn.images} image${turn.images > 1 ? 's' : ''}]</p>`);
    for (const tool of turn.tools) {
      const status = tool.result === undefined ? ' · no result' : tool.isError ? ' · error' : '';
      out.push(
        `<details class="tool"><summary><strong>${t(tool.name)}</strong> ${t(tool.summary)}<span class="${tool.isError ? 'error' : 'muted'}">${status}</span></summary>`,
        `<pre>${t(tool.input)}</pre>`,
      );
      if (tool.result !== undefined)
        out.push(
          `<p class="muted">${tool.isError ? 'Error result' : 'Result'}${escapeHtml(cut(tool.resultChars, tool.result.length))}</p>`,
          `<pre>${t(tool.result)}</pre>`,
        );
      out.push('</details>');
    }
    out.push('</section>');
  }
  out.push('</body>', '</html>');
  return out;
}
