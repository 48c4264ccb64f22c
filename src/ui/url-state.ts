import type { KnobValue } from '../engine/strategies/types';

// The shareable part of the view, in the page's query string: which file (its content hash and
// name — never its content), the strategy, the knob overrides (only what the user set), the
// selected entry, the open replay event, the side panel's tab, the transcript search and the
// timeline's zoom range. Pure: reading and writing a
// query string. Other modules own other parameters (`sample`, a tour's `learn` / `step`): a write
// changes only the keys below and keeps every other parameter as it was.

const URL_KEYS = {
  file: 'file',
  name: 'name',
  strategy: 'strategy',
  entry: 'entry',
  event: 'event',
  view: 'view',
  search: 'q',
  zoom: 'zoom',
} as const;
/** One parameter per overridden knob: `knob.<key>=<JSON value>`. */
const KNOB_PREFIX = 'knob.';

/** Characters of the content hash written (64 bits of SHA-256: enough to tell files apart). */
const URL_HASH_CHARS = 16;

/** Values longer than this are not written (a knob is a number, a flag or a short word). */
const MAX_VALUE_CHARS = 200;

export interface UrlViewState {
  /** The content hash's first `URL_HASH_CHARS` hex digits. */
  file: string;
  /** The file's base name, for "this link was made for another file: <name>". */
  name?: string;
  strategy?: string;
  /** Knob overrides of `strategy`; `null` clears an optional knob. */
  knobs: Record<string, KnobValue | null>;
  entry?: number;
  event?: number;
  view?: string;
  /** The transcript search. */
  search?: string;
  /** The timeline's zoom range: call positions, `from` < `to` (`zoom=from-to`, two decimals). */
  zoom?: { from: number; to: number };
}

const ZOOM_PATTERN = /^(\d{1,9}(?:\.\d{1,2})?)-(\d{1,9}(?:\.\d{1,2})?)$/;

function readZoom(value: string | null): UrlViewState['zoom'] {
  const m = value === null ? null : ZOOM_PATTERN.exec(value);
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = Number(m[2]);
  return to > from ? { from, to } : undefined;
}

/** Two decimals at most, no trailing zeros. */
const formatPosition = (x: number) => String(Math.round(x * 100) / 100);

/** Whether a value must never reach a URL: a key, token, password, email, … (the redaction patterns). */
type SecretCheck = (text: string) => boolean;

/**
 * The secret check, loaded when the first link is written: the patterns (gitleaks' rules among
 * them) stay out of the page's first load.
 */
export async function loadSecretCheck(): Promise<SecretCheck> {
  const { findSecretsInText } = await import('../engine/redact/find-secrets');
  return (text) => findSecretsInText(text).length > 0;
}

const readIndex = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
};

function readKnob(raw: string): KnobValue | null | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    if (v === null || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
    return undefined;
  } catch {
    return undefined;
  }
}

/** The view state a query string carries, or undefined when it names no file. Untrusted input. */
export function readUrlState(search: string): UrlViewState | undefined {
  const params = new URLSearchParams(search);
  const file = params.get(URL_KEYS.file)?.toLowerCase();
  if (!file || !/^[0-9a-f]{8,64}$/.test(file)) return undefined;
  const knobs: Record<string, KnobValue | null> = {};
  for (const [key, raw] of params) {
    if (!key.startsWith(KNOB_PREFIX)) continue;
    const name = key.slice(KNOB_PREFIX.length);
    const value = readKnob(raw);
    if (/^[A-Za-z][\w-]{0,63}$/.test(name) && value !== undefined) knobs[name] = value;
  }
  const strategy = params.get(URL_KEYS.strategy) ?? undefined;
  const view = params.get(URL_KEYS.view) ?? undefined;
  return {
    file,
    name: params.get(URL_KEYS.name)?.slice(0, MAX_VALUE_CHARS) || undefined,
    strategy: strategy && /^[\w-]{1,64}$/.test(strategy) ? strategy : undefined,
    knobs,
    entry: readIndex(params.get(URL_KEYS.entry)),
    event: readIndex(params.get(URL_KEYS.event)),
    view: view && /^[\w-]{1,32}$/.test(view) ? view : undefined,
    search: params.get(URL_KEYS.search)?.slice(0, MAX_VALUE_CHARS) || undefined,
    zoom: readZoom(params.get(URL_KEYS.zoom)),
  };
}

/**
 * The query string with this view state written (or removed, when `state` is undefined). Keys of
 * other modules stay; a value that `looksSecret`, or is too long, is left out.
 */
export function writeUrlState(
  search: string,
  state: UrlViewState | undefined,
  looksSecret: SecretCheck,
): string {
  const params = new URLSearchParams(search);
  for (const key of [...params.keys()])
    if (key.startsWith(KNOB_PREFIX) || (Object.values(URL_KEYS) as string[]).includes(key))
      params.delete(key);
  if (state) {
    const set = (key: string, value: string | number | undefined) => {
      if (value === undefined) return;
      const text = String(value);
      if (text.length > MAX_VALUE_CHARS || looksSecret(text)) return;
      params.set(key, text);
    };
    set(URL_KEYS.file, state.file.slice(0, URL_HASH_CHARS));
    set(URL_KEYS.name, state.name);
    set(URL_KEYS.strategy, state.strategy);
    for (const [key, value] of Object.entries(state.knobs).sort(([a], [b]) => a.localeCompare(b))) {
      if (value === undefined) continue;
      set(`${KNOB_PREFIX}${key}`, JSON.stringify(value));
    }
    set(URL_KEYS.entry, state.entry);
    set(URL_KEYS.event, state.event);
    set(URL_KEYS.view, state.view);
    set(URL_KEYS.search, state.search?.trim() || undefined);
    if (state.zoom && state.zoom.to > state.zoom.from && state.zoom.from >= 0)
      set(URL_KEYS.zoom, `${formatPosition(state.zoom.from)}-${formatPosition(state.zoom.to)}`);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Whether a loaded file's full content hash is the one a link names. */
export function isSameFile(state: UrlViewState, contentHash: string): boolean {
  return contentHash.toLowerCase().startsWith(state.file.slice(0, URL_HASH_CHARS));
}
