import { findSecretsInText, type SecretMatch } from './find-secrets';
import { getMaskText, type SecretKind } from './secret-kinds';

// Masks what `find-secrets.ts` finds: each secret becomes `[REDACTED:<kind>]` (a gitleaks rule's
// `[REDACTED:<rule id>]`), a home path `~`. Secrets are matched by id, so unmasking one unmasks it
// wherever it occurs; and a value found anywhere in the session (`known`) is masked wherever it
// occurs, even where no rule would find it (pasted bare, quoted in a summary, in a file path).

/** A secret's value found somewhere in the session, masked everywhere it occurs. */
export interface KnownSecret {
  id: string;
  kind: SecretKind;
  value: string;
  rule?: string;
}

/** What a redaction pass leaves alone (ids the user unmasked) and what it adds (known values). */
export interface RedactionSettings {
  unmasked: readonly string[];
  known?: readonly KnownSecret[];
}

type MaskOptions = RedactionSettings | RedactionSettings['unmasked'] | ReadonlySet<string> | undefined;

/** Known values shorter than this are not searched for bare (too many accidental matches). */
const MIN_KNOWN_CHARS = 8;

interface Resolved {
  unmasked: ReadonlySet<string>;
  known: readonly KnownSecret[];
}

const resolvedCache = new WeakMap<object, Resolved>();

function resolve(options: MaskOptions): Resolved {
  if (!options) return { unmasked: new Set(), known: [] };
  if (options instanceof Set) return { unmasked: options, known: [] };
  if (Array.isArray(options)) return { unmasked: new Set(options as readonly string[]), known: [] };
  const settings = options as RedactionSettings;
  let r = resolvedCache.get(settings);
  if (!r) {
    const unmasked = new Set(settings.unmasked);
    r = {
      unmasked,
      known: (settings.known ?? []).filter((k) => k.value.length >= MIN_KNOWN_CHARS && !unmasked.has(k.id)),
    };
    resolvedCache.set(settings, r);
  }
  return r;
}

/** Replaces the given matches (sorted, non-overlapping) in a text. */
export function applyMasks(
  text: string,
  matches: readonly SecretMatch[],
  unmasked?: ReadonlySet<string>,
): string {
  if (matches.length === 0) return text;
  let out = '';
  let at = 0;
  for (const m of matches) {
    if (unmasked?.has(m.id)) continue;
    out += text.slice(at, m.start) + (m.rule ? `[REDACTED:${m.rule}]` : getMaskText(m.kind));
    at = m.end;
  }
  return at === 0 ? text : out + text.slice(at);
}

/** The rules' matches plus every occurrence of a known value, sorted, without overlaps. */
function findAllSecrets(text: string, known: readonly KnownSecret[]): SecretMatch[] {
  const found = findSecretsInText(text);
  if (known.length === 0) return found;
  const extra: SecretMatch[] = [];
  for (const k of known) {
    for (let at = text.indexOf(k.value); at >= 0; at = text.indexOf(k.value, at + k.value.length)) {
      extra.push({
        kind: k.kind,
        start: at,
        end: at + k.value.length,
        id: k.id,
        ...(k.rule ? { rule: k.rule } : {}),
      });
    }
  }
  if (extra.length === 0) return found;
  const all = [...found, ...extra].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretMatch[] = [];
  let covered = 0;
  for (const m of all) {
    if (m.start < covered) {
      // Overlapping: widen the previous mask to cover both (a known value inside a longer match).
      const last = out.at(-1)!;
      if (m.end > last.end) out[out.length - 1] = { ...last, end: m.end };
      covered = Math.max(covered, m.end);
      continue;
    }
    out.push(m);
    covered = m.end;
  }
  return out;
}

/** The text with every secret masked except the unmasked ones. */
export function maskText(text: string, options?: MaskOptions): string {
  const r = resolve(options);
  return applyMasks(text, findAllSecrets(text, r.known), r.unmasked);
}

/** Object keys that name a credential: their string value is read as `key=value`. */
const SECRET_KEY_NAME = /pass|secret|token|api[_-]?key|access[_-]?key|auth|credential/i;

/**
 * A JSON value with every string in it masked, object keys too (a secret used as a key name).
 * A new value; the input is not changed.
 */
export function maskJsonValue<T>(value: T, options?: MaskOptions): T {
  const r = resolve(options);
  const mask = (s: string): string => applyMasks(s, findAllSecrets(s, r.known), r.unmasked);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'string' && SECRET_KEY_NAME.test(k) && x.length > 0) {
          // `{"api_key": "…"}`: the name and the value are in different strings; read them together.
          const joined = `${k}=${x}`;
          const matches = findAllSecrets(joined, r.known)
            .filter((m) => m.start >= k.length + 1)
            .map((m) => ({ ...m, start: m.start - k.length - 1, end: m.end - k.length - 1 }));
          out[mask(k)] = applyMasks(x, matches, r.unmasked);
        } else out[mask(k)] = walk(x);
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * The line with each escape's letter (`\n`, `\t`, … of JSON and JavaScript strings) blanked, its
 * length kept: the masks were placed on the decoded strings, where `\n@router.post(` is a newline
 * and a decorator, but the written JSONL reads `n@router.post` as an email's shape (a real session's
 * JSONL export was refused for it). A doubled backslash is a backslash, its next letter kept.
 */
function blankEscapeLetters(line: string): string {
  return line.includes('\\') ? line.replace(/\\(?:\\|[nrtbfv])/g, (e) => (e === '\\\\' ? e : '\\ ')) : line;
}

/** The first found secret an output still holds: its kind or rule and its 1-based line, never the value. */
function findSurvivingSecret(
  output: string | readonly string[],
  settings: RedactionSettings,
): { rule: string; line: number } | undefined {
  const r = resolve(settings);
  let lineNumber = 0;
  for (const part of typeof output === 'string' ? [output] : output) {
    for (const written of part.split('\n')) {
      lineNumber++;
      const line = blankEscapeLetters(written);
      for (const m of findAllSecrets(line, r.known)) {
        if (r.unmasked.has(m.id)) continue;
        // A mask read as part of a secret's shape (`http://[REDACTED:x]@host` as user:password@).
        if (line.slice(m.start, m.end).includes('REDACTED:')) continue;
        if (/\[REDACTED:[\w.-]*$/.test(line.slice(Math.max(0, m.start - 80), m.start))) continue;
        return { rule: m.rule ?? m.kind, line: lineNumber };
      }
    }
  }
  return undefined;
}

/**
 * The re-scan before an export is written (the CLI's `export` / `report` and the page's Export
 * menu): why the output must not be written, or undefined when no found secret survived.
 * Names the rule and the line, never the value. `output` is the text, or its parts as they are
 * written joined by newlines (an export too long to be one string).
 */
export function getRedactionRefusal(
  output: string | readonly string[],
  settings: RedactionSettings,
): string | undefined {
  const survivor = findSurvivingSecret(output, settings);
  return survivor
    ? `a secret (${survivor.rule}) survived redaction on output line ${survivor.line}`
    : undefined;
}

/**
 * The settings plus values to mask wherever they occur (a configured API key a server may echo
 * back). Values shorter than `MIN_KNOWN_CHARS` are ignored, as every known value is.
 */
export function withKnownValues(
  settings: RedactionSettings,
  values: readonly { id: string; value: string }[],
): RedactionSettings {
  const extra = values
    .filter((v) => v.value.length > 0)
    .map((v): KnownSecret => ({ id: v.id, kind: 'env-secret', value: v.value }));
  return extra.length === 0 ? settings : { ...settings, known: [...(settings.known ?? []), ...extra] };
}
