// A small Markdown reader for transcript text (untrusted): it returns a tree of plain strings, and
// each view draws that tree itself (React elements in the conversation view, escaped HTML in the
// transcript export), so no text from a transcript ever becomes markup, code or a loaded resource.
// Read: fenced code, headings, lists, block quotes, rules, paragraphs; inline code, **strong**,
// *emphasis* (underscores stay text: they fill identifiers), links (a target only for http, https
// and mailto; any other scheme stays text),
// images as their alt text (never loaded). Raw HTML is text. Terminal control sequences (ANSI
// escapes) and other control characters are removed first. Linear in the text.

import { stripControls } from './inert-text';

export type MdInline =
  | { t: 'text'; s: string }
  | { t: 'code'; s: string }
  | { t: 'strong'; s: string }
  | { t: 'em'; s: string }
  /** `href` only when the scheme is http, https or mailto. */
  | { t: 'link'; s: string; href?: string }
  | { t: 'image'; alt: string };

export type MdBlock =
  | { t: 'p'; inl: MdInline[] }
  | { t: 'h'; level: number; inl: MdInline[] }
  | { t: 'code'; lang: string; s: string }
  | { t: 'list'; ordered: boolean; items: MdInline[][] }
  | { t: 'quote'; inl: MdInline[] }
  | { t: 'hr' };

/**
 * Transcript text written into a Markdown file: no link, image or link reference definition can
 * form, so a renderer neither follows a `javascript:` or `data:` target nor loads a remote image.
 * Each needs `]` followed at once by `(` (inline) or `:` (a definition, which every reference
 * link needs; CommonMark 0.31 §4.7, §6.3, §6.4); that `]` becomes `&#93;`, which is never syntax.
 * `<` (raw HTML, autolinks) is the writer's to escape.
 */
export function escapeMarkdownLinks(text: string): string {
  return text.replace(/\](?=[(:])/g, '&#93;');
}

const SAFE_HREF = /^(?:https?:\/\/|mailto:)[^\s]*$/i;

/** A link's target when it is safe to offer (http, https, mailto), else undefined. */
function getSafeHref(url: string): string | undefined {
  const trimmed = url.trim();
  return SAFE_HREF.test(trimmed) ? trimmed : undefined;
}

const INLINE =
  /`([^`\n]+)`|\*\*([^*\n]+)\*\*|()\*([^*\s][^*\n]*)\*|!\[([^\]\n]*)\]\(([^)\s]*)\)|\[([^\]\n]+)\]\(([^)\s]*)\)/g;

function parseInline(text: string): MdInline[] {
  const out: MdInline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push({ t: 'text', s: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ t: 'code', s: m[1] });
    else if (m[2] !== undefined) out.push({ t: 'strong', s: m[2] });
    else if (m[4] !== undefined) out.push({ t: 'em', s: m[4] });
    else if (m[5] !== undefined) out.push({ t: 'image', alt: m[5] });
    else if (m[7] !== undefined) {
      const href = getSafeHref(m[8] ?? '');
      out.push(href ? { t: 'link', s: m[7], href } : { t: 'link', s: `${m[7]} (${m[8] ?? ''})` });
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ t: 'text', s: text.slice(last) });
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*)$/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^ {0,3}\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const RULE = /^ {0,3}(?:-{3,}|\*{3,}|_{3,})\s*$/;

/** Reads `text` into blocks. */
export function parseMarkdown(text: string): MdBlock[] {
  const lines = stripControls(text).split('\n');
  const blocks: MdBlock[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) blocks.push({ t: 'p', inl: parseInline(para.join('\n')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(marker); i++) body.push(lines[i]!);
      blocks.push({ t: 'code', lang: fence[2] ?? '', s: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ t: 'h', level: heading[1]!.length, inl: parseInline(heading[2]!) });
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ t: 'hr' });
      continue;
    }
    const bullet = BULLET.exec(line) ?? NUMBERED.exec(line);
    if (bullet) {
      flush();
      const ordered = !BULLET.test(line);
      const items: MdInline[][] = [];
      for (; i < lines.length; i++) {
        const item = (ordered ? NUMBERED : BULLET).exec(lines[i]!);
        if (!item) break;
        items.push(parseInline(item[1]!));
      }
      i--;
      blocks.push({ t: 'list', ordered, items });
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      flush();
      const body: string[] = [];
      for (; i < lines.length; i++) {
        const q = QUOTE.exec(lines[i]!);
        if (!q) break;
        body.push(q[1]!);
      }
      i--;
      blocks.push({ t: 'quote', inl: parseInline(body.join('\n')) });
      continue;
    }
    para.push(line);
  }
  flush();
  return blocks;
}
