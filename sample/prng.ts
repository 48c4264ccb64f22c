// Seeded randomness and the id shapes Claude Code writes. Everything the generator emits comes
// from one `Rng`, so a seed fully determines the output.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: a 32-bit state PRNG, fast and good enough for test data (not for crypto). */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
  };
}

const HEX = '0123456789abcdef';
// Anthropic ids (msg_…, req_…, toolu_…) use the base58 alphabet after their prefix.
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function randomChars(rng: Rng, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rng.next() * alphabet.length)];
  return out;
}

export function randomHex(rng: Rng, length: number): string {
  return randomChars(rng, HEX, length);
}

/** RFC 4122 version-4 layout, as Claude Code's `uuid` / `sessionId` / `promptId`. */
export function randomUuid(rng: Rng): string {
  const h = randomHex(rng, 32);
  const variant = HEX[8 + rng.int(0, 3)];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
}

/** `msg_01…`: 24 characters after `msg_`, as in the corpus. */
export function randomMessageId(rng: Rng): string {
  return `msg_01${randomChars(rng, BASE58, 22)}`;
}

/** `req_011C…`: 28 characters after `req_`, as in the corpus. */
export function randomRequestId(rng: Rng): string {
  return `req_011C${randomChars(rng, BASE58, 20)}`;
}

/** `toolu_01…`: Anthropic API tool-use ids (Vertex and Bedrock use other prefixes). */
export function randomToolUseId(rng: Rng): string {
  return `toolu_01${randomChars(rng, BASE58, 22)}`;
}

/** Thinking-block signatures are opaque base64; only their length matters to a viewer. */
export function randomSignature(rng: Rng, length: number): string {
  return `Eq${randomChars(rng, BASE64, Math.max(8, length - 4))}==`;
}

/** Lower-case base36, as in `tool-results/<id>.txt` names. */
export function randomBase36(rng: Rng, length: number): string {
  return randomChars(rng, '0123456789abcdefghijklmnopqrstuvwxyz', length);
}
