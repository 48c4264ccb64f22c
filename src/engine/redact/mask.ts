import { findSecretsInText, type SecretKind, type SecretMatch } from './find-secrets';

// Masks what `find-secrets.ts` finds: each secret becomes `[REDACTED:<kind>]`, a home path `~`.
// Secrets are matched by id, so unmasking one unmasks it wherever it occurs.

/** What a redaction pass leaves alone: ids of secrets the user unmasked. */
export interface RedactionSettings {
  unmasked: readonly string[];
}

/** The text that replaces a secret of this kind. */
export function getMaskText(kind: SecretKind): string {
  return kind === 'home-path' ? '~' : `[REDACTED:${kind}]`;
}

function toSet(
  unmasked: RedactionSettings['unmasked'] | ReadonlySet<string> | undefined,
): ReadonlySet<string> {
  if (!unmasked) return new Set();
  return unmasked instanceof Set ? unmasked : new Set(unmasked as readonly string[]);
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

/** The text with every secret masked except the unmasked ones. */
export function maskText(text: string, unmasked?: readonly string[] | ReadonlySet<string>): string {
  return applyMasks(text, findSecretsInText(text), toSet(unmasked));
}

/** A JSON value with every string in it masked (object keys are kept). A new value; the input is not changed. */
export function maskJsonValue<T>(value: T, unmasked?: readonly string[] | ReadonlySet<string>): T {
  const set = toSet(unmasked);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return applyMasks(v, findSecretsInText(v), set);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
