#!/usr/bin/env node
// Rewrites the comments and source strings that cite the reference notes kept beside the project
// (../shared/reference/*, ../shared/research/*: files a reader of this repository does not have)
// into links to docs/sources.md, which states the same facts in our words with their public
// sources. A citation is a note's name (with or without its path) and the sections after it:
//
//   claude-code-compaction-v2.1.68.txt "Threshold"     → docs/sources.md#cc-threshold
//   v2.1.68 'Five compaction mechanisms'               → v2.1.68 (docs/sources.md#cc-five-mechanisms)
//   compact-system.md "Micro-Compact Function: Si()"   → docs/sources.md#ccs-microcompact
//   research/ANCHORS.md §2.1 "OpenCode" (anomalyco/…)  → docs/sources.md#opencode (anomalyco/…)
//   FORMAT.md §4.3, §8.3                               → docs/sources.md#fmt-around-compaction, #fmt-tolerate
//   ${V2168} "Threshold"  (const V2168 = 'claude-code-compaction-v2.1.68.txt')  → docs/sources.md#cc-threshold
//
// Steps, edge cases and minified names after a section are kept (`step 7`, `` `JQ6` ``); a knob's
// `source` string keeps the public repository path it already names.
//
//   node scripts/rewrite-citations.mjs [--root DIR] [paths…]   rewrite in place (default: src)
//   node scripts/rewrite-citations.mjs --check [--root DIR]     list what it cannot map, and every
//                                                               reference a rewrite would leave; exit 1 if any
//   node scripts/rewrite-citations.mjs --list [--root DIR]      every citation and its anchor
//
// Written to run once the other refactors of src/ have landed; --check first. After a rewrite the
// rewritten files are formatted (biome), and docs/cli.md, which shows the knobs' sources, is
// generated again: node bin/run-ts.mjs scripts/gen-cli-docs.ts.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { NOTES } from './citation-notes.mjs';

export { NOTES };

const SOURCES = 'docs/sources.md';

// ---------------------------------------------------------------------------------------------
// Finding citations.

// A comment line break inside a quoted title: `"Full\n  // mechanism"`.
const WRAP = String.raw`(?:\s*\n\s*(?:\/\/|\*)?\s*)`;
const TITLE = String.raw`"(?:[A-Za-z§/]|\()(?:[^"\n]|${WRAP}){0,90}?"|'[A-Z][A-Za-z0-9 ,:()/-]{0,60}'|“[^”\n]{1,80}”`;
const IDENT = '`[$_A-Za-z][$_A-Za-z0-9]{0,7}(?:\\(\\))?`';
const NUMBERED = String.raw`(?:steps?|edge cases?|phase|item)${WRAP}?\s*\d+(?:\s*(?:[–-]|,|and)\s*\d+)*`;
const SECTION = String.raw`§\d+(?:\.\d+)*`;
const DESIGNATOR = `(?:${SECTION}|${TITLE}|${IDENT}|${NUMBERED})`;
const SEP = String.raw`(?:\s*,?${WRAP}?\s*(?:(?:section|sections|and)\s+)?)`;
const DESIGNATORS = `(?:${SEP}${DESIGNATOR})*`;
const PATH = String.raw`(?:(?:\.\.\/)+(?:shared\/)?)?(?:reference\/|research\/)?`;
const IN_SHARED = String.raw`(?:\s+in\s+(?:\.\.\/)+shared\/\w+)?`;

const noteRegex = (note) =>
  new RegExp(`${PATH}(?:${note.name})(?![\\w-]|\\.\\w)${IN_SHARED}(${DESIGNATORS})`, 'g');
// The notes' folders named without a file: `per ../shared/reference`.
const BARE_FOLDER = /(?:\.\.\/)+shared\/(?:reference|research)(?![\w/])/g;
// `v2.1.68` alone: a citation only with a section after it, and never a quoted profile id.
const BARE_VERSION = new RegExp(`(?<!['"\`\\w.-])v2\\.1\\.68(?!['"\\w.-])((?:${SEP}${DESIGNATOR})+)`, 'g');

/** The designators of a matched tail, in order: { kind, text }. */
function splitDesignators(tail) {
  const parts = [];
  const re = new RegExp(DESIGNATOR, 'g');
  for (const m of tail.matchAll(re)) {
    const text = m[0];
    const kind = text.startsWith('§')
      ? 'section'
      : text.startsWith('`')
        ? 'ident'
        : /^["'“]/.test(text)
          ? 'title'
          : 'numbered';
    parts.push({ kind, text });
  }
  return parts;
}

const normTitle = (t) =>
  t.slice(1, -1).replace(new RegExp(WRAP, 'g'), ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/** Maps one citation (a note and its designators) to anchors; `unmapped` lists what did not fit. */
function mapCitation(note, parts, context) {
  const anchors = [];
  const kept = [];
  const unmapped = [];
  let current;
  let rowWanted = false;
  for (const part of parts) {
    if (part.kind === 'section') {
      const number = part.text.slice(1);
      const table = note.sections ?? {};
      if (note.key === 'anchors' && number === '2.1') {
        current = undefined; // a row title or the context decides
        rowWanted = true;
        continue;
      }
      let anchor = table[number];
      // §8.3 → §8's anchor when only the section is listed.
      if (anchor === undefined && number.includes('.')) anchor = table[number.split('.')[0]];
      if (anchor) {
        current = anchor;
        anchors.push(anchor);
      } else unmapped.push(part.text);
    } else if (part.kind === 'title') {
      const title = normTitle(part.text);
      const hit = note.titles.find(([prefix]) => title.startsWith(prefix));
      if (hit) {
        current = hit[1];
        anchors.push(hit[1]);
        rowWanted = false;
      } else unmapped.push(part.text);
    } else if (part.kind === 'ident') {
      const name = part.text.replace(/[`()]/g, '');
      const anchor = note.idents?.[name];
      if (anchor && !current) {
        current = anchor;
        anchors.push(anchor);
      }
      kept.push(part.text);
    } else {
      // step N, edge cases N–M, phase N, item N: kept as written, under the section before them.
      if (!current) {
        const anchor = /^edge/.test(part.text) ? note.edgeCases : note.steps;
        if (anchor) {
          current = anchor;
          anchors.push(anchor);
        }
      }
      kept.push(part.text.replace(new RegExp(WRAP, 'g'), ' '));
    }
  }
  // §2.1 without a row title: the row the words after it (or the file's name) point to.
  if (note.key === 'anchors' && (rowWanted || anchors.length === 0)) {
    const hint =
      note.rowHints.find(([re]) => re.test(context.after)) ??
      note.rowHints.find(([re]) => re.test(context.before));
    anchors.unshift(hint ? hint[1] : note.doc);
  }
  if (anchors.length === 0) anchors.push(note.doc);
  return { anchors: [...new Set(anchors)], kept, unmapped };
}

const link = (anchors) =>
  `${SOURCES}#${anchors[0]}${anchors
    .slice(1)
    .map((a) => `, #${a}`)
    .join('')}`;

// ---------------------------------------------------------------------------------------------
// Rewriting one file.

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** Whether `index` sits in a comment: after `//` on its line, or on a ` * ` line of a block comment. */
function inComment(text, index) {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const before = text.slice(lineStart, index);
  return before.includes('//') || /^\s*(\/\*|\*)/.test(before);
}

/** Rewrites one file's text; returns the new text, the citations found and the unmapped ones. */
export function rewriteText(text, fileHint = '') {
  const found = [];
  const unmapped = [];
  const edits = []; // [start, end, replacement]
  const taken = (start, end) => edits.some(([s, e]) => start < e && end > s);

  const record = (match, replacement, mapped) => {
    found.push({
      line: lineOf(text, match.index),
      text: match[0].replace(/\s+/g, ' '),
      anchors: mapped.anchors,
    });
    if (mapped.unmapped.length) {
      unmapped.push({
        line: lineOf(text, match.index),
        text: match[0].replace(/\s+/g, ' '),
        why: mapped.unmapped,
      });
      return;
    }
    edits.push([match.index, match.index + match[0].length, replacement]);
  };

  // What follows a citation (and the file's name), then what precedes it on its line.
  const contextAt = (index, length) => ({
    after: `${text.slice(index, index + length + 120)} ${fileHint}`,
    before: text.slice(text.lastIndexOf('\n', index - 1) + 1, index),
  });

  // 1. Constants that hold a note's name: `const V2168 = 'claude-code-compaction-v2.1.68.txt';`.
  const aliases = [];
  for (const note of NOTES) {
    const decl = new RegExp(`^([ \\t]*)const (\\w+) = (['\`])${PATH}(?:${note.name})\\3;[ \\t]*\\n`, 'gm');
    for (const m of text.matchAll(decl)) aliases.push({ note, name: m[2], decl: m });
  }
  for (const { note, name, decl } of aliases) {
    const use = new RegExp(`\\$\\{${name}\\}(${DESIGNATORS})`, 'g');
    for (const m of text.matchAll(use)) {
      const mapped = mapCitation(note, splitDesignators(m[1]), contextAt(m.index, m[0].length));
      const tail = mapped.kept.length ? ` ${mapped.kept.join(', ')}` : '';
      record(m, `${link(mapped.anchors)}${tail}`, mapped);
    }
    // Any other use of the name (outside a template) becomes the note's anchor as a string.
    const other = new RegExp(`(?<![\\w{$])${name}(?![\\w}])`, 'g');
    for (const m of text.matchAll(other)) {
      if (m.index >= decl.index && m.index < decl.index + decl[0].length) continue;
      if (inComment(text, m.index)) continue;
      edits.push([m.index, m.index + name.length, `'${SOURCES}#${note.doc}'`]);
    }
  }

  // 2. The notes named in place.
  for (const note of NOTES) {
    for (const m of text.matchAll(noteRegex(note))) {
      if (taken(m.index, m.index + m[0].length)) continue;
      // Inside an alias declaration: handled with the alias.
      if (aliases.some(({ decl }) => m.index >= decl.index && m.index < decl.index + decl[0].length))
        continue;
      const parts = splitDesignators(m[1]);
      const mapped = mapCitation(note, parts, contextAt(m.index, m[0].length));
      const tail = mapped.kept.length ? ` ${mapped.kept.join(', ')}` : '';
      record(m, `${link(mapped.anchors)}${tail}`, mapped);
    }
  }

  // 3. `v2.1.68 "Section"`: the version stays, the section becomes a link.
  const cc = NOTES[0];
  for (const m of text.matchAll(BARE_VERSION)) {
    if (taken(m.index, m.index + m[0].length)) continue;
    const mapped = mapCitation(cc, splitDesignators(m[1]), contextAt(m.index, m[0].length));
    const idents = mapped.kept.filter((k) => k.startsWith('`'));
    const numbered = mapped.kept.filter((k) => !k.startsWith('`'));
    const head = ['v2.1.68', ...idents].join(' ');
    const tail = numbered.length ? ` ${numbered.join(', ')}` : '';
    record(m, `${head} (${link(mapped.anchors)}${tail})`, mapped);
  }

  // 4. The folders alone: `per ../shared/reference` → `per docs/sources.md`.
  for (const m of text.matchAll(BARE_FOLDER)) {
    if (taken(m.index, m.index + m[0].length)) continue;
    found.push({ line: lineOf(text, m.index), text: m[0], anchors: [] });
    edits.push([m.index, m.index + m[0].length, SOURCES]);
  }

  // Alias declarations go once every use is rewritten.
  for (const { name, decl } of aliases) {
    const rest = edits.filter(([s]) => s < decl.index || s >= decl.index + decl[0].length);
    const uses = [...text.matchAll(new RegExp(`(?<![\\w])${name}(?![\\w])`, 'g'))].filter(
      (m) => (m.index < decl.index || m.index >= decl.index + decl[0].length) && !inComment(text, m.index),
    );
    const allRewritten = uses.every((m) => rest.some(([s, e]) => m.index >= s - 2 && m.index < e));
    if (!allRewritten) continue;
    // With a blank line on both sides, the declaration takes one of them with it.
    const blankBefore = text.slice(Math.max(0, decl.index - 2), decl.index) === '\n\n';
    const blankAfter = text[decl.index + decl[0].length] === '\n';
    edits.push([decl.index, decl.index + decl[0].length + (blankBefore && blankAfter ? 1 : 0), '']);
  }

  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  let lastStart = Number.POSITIVE_INFINITY;
  for (const [start, end, replacement] of edits) {
    if (end > lastStart) continue; // overlapping: the later (outer) edit already applied
    out = out.slice(0, start) + replacement + out.slice(end);
    lastStart = start;
  }
  return { text: out, found, unmapped };
}

// References a rewrite leaves behind: a note's name, a path into ../shared, or `v2.1.68` with a
// quoted section after it. `tests/replay/reference/` and quoted profile ids are not references.
const RESIDUAL = new RegExp(
  [
    // The notes' folders; the corpus (../shared/corpus) is test data read where present, not a citation.
    String.raw`\.\.\/shared\/(?:reference|research)`,
    String.raw`(?<![\w/])(?:reference|research)\/(?!\w+\.ts)`,
    'compact-system',
    'summarization-architecture',
    'cline-compact',
    'microcompaction-deep',
    String.raw`ANCHORS(?:\.md|\s§)`,
    String.raw`FORMAT\.md`,
    String.raw`STACK\.md`,
    String.raw`v2\.1\.68\.txt`,
    String.raw`(?<!['"\`])v2\.1\.68\s+["'](?=[A-Z])`,
  ].join('|'),
);

// ---------------------------------------------------------------------------------------------

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.(ts|tsx|mjs|js|css)$/.test(name) && !['rewrite-citations.mjs', 'sources.test.ts'].includes(name)
      ? [path]
      : [];
  });
}

function main() {
  const args = process.argv.slice(2);
  const flag = (name) => args.includes(name);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? args[rootAt + 1] : process.cwd();
  const paths = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--root');
  const files = (paths.length ? paths : ['src']).flatMap((p) => {
    const abs = join(root, p);
    return statSync(abs).isDirectory() ? walk(abs) : [abs];
  });

  let citations = 0;
  let changed = 0;
  const written = [];
  const problems = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const rel = relative(root, file);
    const result = rewriteText(text, rel);
    citations += result.found.length;
    if (flag('--list'))
      for (const f of result.found) console.log(`${rel}:${f.line}  ${f.text}  →  ${f.anchors.join(', ')}`);
    for (const u of result.unmapped)
      problems.push(`${rel}:${u.line}  cannot map ${u.why.join(', ')} in: ${u.text}`);
    result.text.split('\n').forEach((line, i) => {
      if (RESIDUAL.test(line))
        problems.push(`${rel}:${i + 1}  left after the rewrite: ${line.trim().slice(0, 160)}`);
    });
    if (!flag('--check') && !flag('--list') && result.text !== text) {
      writeFileSync(file, result.text);
      written.push(file);
      changed++;
    }
  }
  // Rewritten lines change length: the formatter lays them out again (house style, biome).
  if (written.length)
    execFileSync('npx', ['biome', 'format', '--write', ...written], { cwd: root, stdio: 'ignore' });
  const unique = [...new Set(problems)];
  for (const p of unique) console.log(p);
  const dryRun = flag('--check') || flag('--list');
  const unmappedCount = unique.filter((p) => p.includes('cannot map')).length;
  const done = dryRun ? `would rewrite ${citations - unmappedCount}` : `rewrote ${changed} files`;
  console.log(`${citations} citations in ${files.length} files; ${done}; ${unique.length} to fix by hand`);
  if (flag('--check') && unique.length) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) main();
