#!/usr/bin/env node
// Regenerates src/engine/redact/rules/gitleaks-rules.json from gitleaks' rule file (MIT):
//   node scripts/update-secret-rules.mjs [<gitleaks.toml> | <gitleaks git dir> [<rev>]]
// Default: the snapshot at /work/.mirror/gitleaks+gitleaks/repo, HEAD.
//
// gitleaks' regexes are Go RE2. JS lacks inline flags (`(?i)` mid-pattern, `(?i:…)`, `(?-i:…)`,
// `(?s:…)`), `\z` and POSIX classes: each is rewritten to an equivalent JS pattern without flags
// (a letter under `i` becomes `[aA]`, a class gains the other case's letters). RE2 runs in linear
// time; JS backtracks, so a rule is kept only when a static check proves each match attempt does
// bounded work: no quantified group holds a quantifier, and every unbounded quantifier (`+`, `*`,
// `{n,}`) is bounded at MAX_REPEAT (a deviation, listed per rule). What cannot be translated is
// dropped with the reason in the JSON.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'src/engine/redact/rules/gitleaks-rules.json');
const DEFAULT_SOURCE = '/work/.mirror/gitleaks+gitleaks/repo';
/** Bound for `+`, `*`, `{n,}`: longer than any key format gitleaks names except PEM blocks. */
const MAX_REPEAT = 4096;
/** Rules ours already covers with fewer false positives, dropped on purpose. */
const DROPPED_ON_PURPOSE = {
  'generic-api-key':
    'ours: find-secrets.ts env-secret and the entropy rule cover it; its 1,400-word stopword list gives many false positives on transcripts',
  'private-key': 'ours: find-secrets.ts finds PEM private keys with indexOf, in linear time',
};

// --- source -------------------------------------------------------------------------------------

const source = process.argv[2] ?? DEFAULT_SOURCE;
const rev = process.argv[3] ?? 'HEAD';
let toml;
let origin;
if (existsSync(source) && statSync(source).isFile()) {
  toml = readFileSync(source, 'utf8');
  origin = { file: source };
} else {
  const git = (...args) => execFileSync('git', ['-C', source, ...args], { encoding: 'utf8' }).trim();
  toml = git('show', `${rev}:config/gitleaks.toml`);
  origin = {
    repository: 'https://github.com/gitleaks/gitleaks',
    commit: git('rev-parse', rev),
    version: git('describe', '--tags', rev),
    date: git('log', '-1', '--format=%cI', rev),
  };
}

// --- a TOML reader for gitleaks.toml's shape: tables, arrays of tables, strings, numbers, arrays

function readValue(text) {
  const t = text.trim();
  if (t.startsWith("'''")) return t.slice(3, t.lastIndexOf("'''"));
  if (t.startsWith("'")) return t.slice(1, t.lastIndexOf("'"));
  if (t.startsWith('"')) return JSON.parse(t);
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  throw new Error(`unsupported TOML value: ${t.slice(0, 80)}`);
}

function readArray(body) {
  const out = [];
  const item = /'''([\s\S]*?)'''|'([^']*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)/g;
  for (let m = item.exec(body); m; m = item.exec(body)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(m[2]);
    else if (m[3] !== undefined) out.push(JSON.parse(`"${m[3]}"`));
    else out.push(Number(m[4]));
  }
  return out;
}

function parseToml(text) {
  const root = { rules: [] };
  let table = root;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    if (line === '[[rules]]') {
      table = { allowlists: [] };
      root.rules.push(table);
    } else if (line === '[[rules.allowlists]]') {
      table = {};
      root.rules.at(-1).allowlists.push(table);
    } else if (line.startsWith('[')) {
      table = {};
      root[line.replace(/[[\]]/g, '')] = table;
    } else {
      const eq = line.indexOf('=');
      const key = line.slice(0, eq).trim();
      let rest = line.slice(eq + 1).trim();
      if (rest.startsWith('[')) {
        while (!/\]\s*$/.test(rest) || rest.trim() === '[') rest += `\n${lines[++i]}`;
        table[key] = readArray(rest.slice(1, rest.lastIndexOf(']')));
      } else table[key] = readValue(rest);
    }
  }
  return root;
}

// --- RE2 → JS -----------------------------------------------------------------------------------

class Untranslatable extends Error {}

const swapCase = (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const isLetter = (c) => /^[A-Za-z]$/.test(c);

/** Reads one escape at `i` (the backslash); returns [its text, next index]. */
function readEscape(re, i) {
  const c = re[i + 1];
  if (c === undefined) throw new Untranslatable('trailing backslash');
  if (c === 'x') {
    if (re[i + 2] === '{') throw new Untranslatable('\\x{…} escape');
    return [re.slice(i, i + 4), i + 4];
  }
  if (c === 'p' || c === 'P') throw new Untranslatable('unicode class \\p');
  if (c === 'Q' || c === 'C') throw new Untranslatable(`\\${c}`);
  return [re.slice(i, i + 2), i + 2];
}

/** A character class at `i` (`[`), case-folded when `ci`; returns [its text, next index]. */
function readClass(re, i, ci) {
  let j = i + 1;
  let out = '[';
  if (re[j] === '^') {
    out += '^';
    j++;
  }
  const extra = [];
  let first = true;
  while (j < re.length && (re[j] !== ']' || first)) {
    first = false;
    if (re.startsWith('[:', j)) {
      const end = re.indexOf(':]', j);
      const name = re.slice(j + 2, end);
      const posix = {
        alnum: 'A-Za-z0-9',
        alpha: 'A-Za-z',
        digit: '0-9',
        xdigit: '0-9A-Fa-f',
        upper: 'A-Z',
        lower: 'a-z',
      };
      if (!posix[name]) throw new Untranslatable(`POSIX class [:${name}:]`);
      out += posix[name];
      j = end + 2;
      continue;
    }
    let atom;
    if (re[j] === '\\') [atom, j] = readEscape(re, j);
    else atom = re[j++];
    if (re[j] === '-' && re[j + 1] !== ']' && re[j + 1] !== undefined) {
      let hi;
      if (re[j + 1] === '\\') [hi, j] = readEscape(re, j + 1);
      else [hi, j] = [re[j + 1], j + 2];
      out += `${atom}-${hi}`;
      if (ci && isLetter(atom) && isLetter(hi) && atom <= 'Z' === hi <= 'Z')
        extra.push(`${swapCase(atom)}-${swapCase(hi)}`);
      else if (ci && (isLetter(atom) || isLetter(hi))) throw new Untranslatable('case-folded mixed range');
      continue;
    }
    // `[` inside a class is a literal in RE2; JS's v-flag is not used, so escaping it is safe.
    out += atom === '[' ? '\\[' : atom;
    if (ci && isLetter(atom)) extra.push(swapCase(atom));
  }
  if (re[j] !== ']') throw new Untranslatable('unterminated class');
  // The other case's letters go first: after a trailing `-` they would make a range.
  const head = out.startsWith('[^') ? '[^' : '[';
  return [`${head}${extra.join('')}${out.slice(head.length)}]`, j + 1];
}

/**
 * Translates an RE2 pattern to a JS one with no flags. Returns the source, the deviations, and the
 * quantifiers' shape for the linear-time check.
 */
export function translateRe2(re) {
  const notes = new Set();
  let out = '';
  // One frame per open group: its case flag, dotall flag, and whether it holds a quantifier.
  const stack = [{ ci: false, dotAll: false, hasQuant: false }];
  const top = () => stack.at(-1);
  let i = 0;
  /** After an atom: copies its quantifier, bounding an unbounded one. Returns whether there was one. */
  const quantifier = () => {
    const m = /^(?:[*+?]|\{(\d+)(,(\d*))?\})\??/.exec(re.slice(i));
    if (!m) return false;
    i += m[0].length;
    const lazy = m[0].endsWith('?') && m[0].length > 1 ? '?' : '';
    const q = m[0].slice(0, m[0].length - lazy.length);
    let js = q;
    if (q === '*') js = `{0,${MAX_REPEAT}}`;
    else if (q === '+') js = `{1,${MAX_REPEAT}}`;
    else if (m[2] !== undefined && m[3] === '') {
      js = `{${m[1]},${Math.max(MAX_REPEAT, Number(m[1]))}}`;
    }
    if (js !== q) notes.add(`unbounded ${q} bounded at ${MAX_REPEAT}`);
    out += js + lazy;
    return true;
  };
  while (i < re.length) {
    const c = re[i];
    const frame = top();
    if (c === '(') {
      const flags = /^\(\?(-?)([is]+)(\)|:)/.exec(re.slice(i));
      if (flags) {
        const on = flags[1] !== '-';
        const apply = (f) => ({
          ci: flags[2].includes('i') ? on : f.ci,
          dotAll: flags[2].includes('s') ? on : f.dotAll,
        });
        i += flags[0].length;
        if (flags[3] === ')') Object.assign(frame, apply(frame));
        else {
          out += '(?:';
          stack.push({ ...apply(frame), hasQuant: false, group: true });
        }
        continue;
      }
      const named = /^\(\?P?<([A-Za-z_]\w*)>/.exec(re.slice(i));
      if (re.startsWith('(?:', i)) {
        out += '(?:';
        i += 3;
      } else if (named) {
        out += `(?<${named[1]}>`;
        i += named[0].length;
      } else if (re[i + 1] === '?') throw new Untranslatable(`group ${re.slice(i, i + 4)}`);
      else {
        out += '(';
        i++;
      }
      stack.push({ ci: frame.ci, dotAll: frame.dotAll, hasQuant: false, group: true });
      continue;
    }
    if (c === ')') {
      const closed = stack.pop();
      if (!closed?.group) throw new Untranslatable('unbalanced )');
      out += ')';
      i++;
      const at = i;
      if (quantifier()) {
        // A group taken at most once (`?`) or a fixed number of times (`{n}`) cannot multiply the
        // ways its inner quantifiers split a run; one repeated a variable number of times can.
        const q = re.slice(at, i).replace(/\?$/, '') || '?';
        const fixed = q === '?' || /^\{(\d+)(?:,\1)?\}$/.test(q);
        if (closed.hasQuant && !fixed)
          throw new Untranslatable(`nested quantifier (a group repeated ${q} holds a quantifier)`);
        top().hasQuant = true;
      } else if (closed.hasQuant) top().hasQuant = true;
      continue;
    }
    if (c === '[') {
      const [cls, next] = readClass(re, i, frame.ci);
      out += cls;
      i = next;
    } else if (c === '\\') {
      const [esc, next] = readEscape(re, i);
      i = next;
      if (esc === '\\z') out += '(?![\\s\\S])';
      else if (esc === '\\A') out += '(?<![\\s\\S])';
      else if (esc === '\\Z') throw new Untranslatable('\\Z');
      else if (frame.ci && isLetter(esc[1]) && !/[wWdDsSbBnrtfvx0]/.test(esc[1]))
        throw new Untranslatable(`case-folded ${esc}`);
      else out += esc;
    } else if (c === '.') {
      out += frame.dotAll ? '[\\s\\S]' : '[^\\n]';
      i++;
    } else if (c === '^' || c === '$') {
      // RE2 without (?m): start / end of text, as in JS without the m flag.
      out += c;
      i++;
      continue;
    } else if (c === '|') {
      out += '|';
      i++;
      continue;
    } else {
      out += frame.ci && isLetter(c) ? `[${c}${swapCase(c)}]` : /[/]/.test(c) ? `\\${c}` : c;
      i++;
    }
    if (quantifier()) frame.hasQuant = true;
  }
  if (stack.length !== 1) throw new Untranslatable('unbalanced (');
  return { source: out, notes: [...notes] };
}

// --- example values from gitleaks' generator tests (MIT test data) ------------------------------

function readExamples() {
  if (!origin.commit) return new Map();
  const git = (...args) =>
    execFileSync('git', ['-C', source, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const files = git('ls-tree', '--name-only', origin.commit, 'cmd/generate/config/rules/')
    .split('\n')
    .filter(Boolean);
  const byId = new Map();
  for (const f of files) {
    const go = git('show', `${origin.commit}:${f}`);
    // Each rule's function: `RuleID: "<id>"` … `tps := []string{ … }` (true positives).
    const parts = go.split(/\nfunc /);
    for (const part of parts) {
      const id = /RuleID:\s*"([^"]+)"/.exec(part)?.[1];
      const tps = /tps\s*:?=\s*\[\]string\{([\s\S]*?)\n\t\}/.exec(part)?.[1];
      if (!id || !tps) continue;
      const values = [];
      for (const m of tps.matchAll(/(?:^|\n)\s*(`[^`]*`|"(?:[^"\\]|\\.)*")\s*,/g)) {
        values.push(m[1].startsWith('`') ? m[1].slice(1, -1) : JSON.parse(m[1]));
      }
      if (values.length) byId.set(id, values.slice(0, 3));
    }
  }
  return byId;
}

// --- build --------------------------------------------------------------------------------------

const config = parseToml(toml);
const examples = readExamples();
const rules = [];
const dropped = [];
for (const r of config.rules) {
  if (DROPPED_ON_PURPOSE[r.id]) {
    dropped.push({ id: r.id, reason: DROPPED_ON_PURPOSE[r.id] });
    continue;
  }
  if (!r.regex) {
    dropped.push({ id: r.id, reason: 'matches file paths only (no regex)' });
    continue;
  }
  try {
    const { source: js, notes } = translateRe2(r.regex);
    new RegExp(js, 'g');
    const allow = [];
    for (const a of r.allowlists ?? []) {
      if (a.paths || a.condition) continue;
      const target = a.regexTarget ?? 'secret';
      const regexes = [];
      for (const x of a.regexes ?? []) {
        try {
          regexes.push(translateRe2(x).source);
        } catch (e) {
          notes.push(`allowlist regex dropped: ${e.message}`);
        }
      }
      allow.push({ target, regexes, ...(a.stopwords ? { stopwords: a.stopwords } : {}) });
    }
    rules.push({
      id: r.id,
      description: r.description,
      regex: js,
      keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
      ...(r.entropy !== undefined ? { entropy: r.entropy } : {}),
      ...(r.secretGroup !== undefined ? { secretGroup: r.secretGroup } : {}),
      ...(allow.length ? { allowlists: allow } : {}),
      ...(notes.length ? { deviations: notes } : {}),
      ...(examples.has(r.id) ? { examples: examples.get(r.id) } : {}),
      source: r.regex,
    });
  } catch (e) {
    if (!(e instanceof Untranslatable) && !(e instanceof SyntaxError)) throw e;
    dropped.push({ id: r.id, reason: `untranslatable: ${e.message}` });
  }
}

const globalAllow = [];
for (const x of config.allowlist?.regexes ?? []) {
  try {
    globalAllow.push(translateRe2(x).source);
  } catch {}
}

const json = {
  about:
    "Generated by scripts/update-secret-rules.mjs from gitleaks config/gitleaks.toml; do not edit. Rules, and the example values (from cmd/generate/config/rules/*.go true positives), are gitleaks' (MIT License, Copyright (c) 2019 Zachary Rice; see LICENSE-third-party.md). Regexes translated from Go RE2 to JS.",
  license: 'MIT',
  source: origin,
  maxRepeat: MAX_REPEAT,
  globalAllowRegexes: globalAllow,
  globalStopwords: config.allowlist?.stopwords ?? [],
  kept: rules.length,
  dropped,
  rules,
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(json, null, 2)}\n`);
// The house formatter's layout, so a regeneration diffs only where the rules changed.
try {
  execFileSync('npx', ['biome', 'format', '--write', OUT], { cwd: ROOT, stdio: 'ignore' });
} catch {}
process.stdout.write(
  `${OUT}: ${rules.length} rules kept, ${dropped.length} dropped, ${[...examples.keys()].length} with examples (${origin.version ?? origin.file})\n`,
);
