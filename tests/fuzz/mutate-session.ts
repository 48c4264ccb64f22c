import { at as itemAt } from '../../src/engine/assert';
import fc from 'fast-check';

/** How one line of a session is damaged. Positions are fractions of the line's length. */
export type Mutation =
  | { kind: 'cut'; at: number }
  | { kind: 'flip'; at: number; byte: number }
  /** This line cut off, the next line written right after it (two writers, FORMAT.md §8.1). */
  | { kind: 'splice'; at: number }
  /** This line and the next one whole, with no newline between them. */
  | { kind: 'glue' }
  | { kind: 'nest'; depth: number; closed: boolean }
  | { kind: 'invalid-utf8'; at: number; bytes: readonly number[] }
  /** The line re-encoded as Latin-1 (what a Windows editor may save). */
  | { kind: 'latin1' }
  | { kind: 'garbage'; bytes: Uint8Array };

/** Bytes a flip may write: anything but newline and CR, which would split or trim the line. */
const flipByte = fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a && b !== 0x0d);
const at = fc.double({ min: 0, max: 1, noNaN: true });

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at }),
  fc.record({ kind: fc.constant('flip' as const), at, byte: flipByte }),
  fc.record({ kind: fc.constant('splice' as const), at }),
  fc.record({ kind: fc.constant('glue' as const) }),
  fc.record({
    kind: fc.constant('nest' as const),
    depth: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constantFrom(1_000, 10_000)),
    closed: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('invalid-utf8' as const),
    at,
    // A lone continuation byte, a lead byte without its tail, an overlong NUL, a byte never in UTF-8.
    bytes: fc.constantFrom([0x80], [0xc3], [0xe2, 0x82], [0xc0, 0x80], [0xff], [0xed, 0xa0, 0x80]),
  }),
  fc.record({ kind: fc.constant('latin1' as const) }),
  fc.record({
    kind: fc.constant('garbage' as const),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => b.map((x) => (x === 0x0a ? 0x20 : x))),
  }),
);

/** One line of the mutated file, with what it was made from. */
export interface OutputLine {
  bytes: Uint8Array;
  /** Indices of the original lines it holds. */
  from: number[];
  mutation?: Mutation['kind'];
}

const encoder = new TextEncoder();

const position = (length: number, fraction: number) => Math.min(length, Math.floor(fraction * length));

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => (c.charCodeAt(0) <= 0xff ? c.charCodeAt(0) : 0x3f));
}

/**
 * Applies mutations to the lines they point at (index modulo the line count). A line is mutated
 * at most once; `splice` and `glue` also consume the line after. At most a third of the lines is
 * touched, so the dialect is still recognised from the untouched ones.
 */
export function mutateLines(lines: string[], mutations: [number, Mutation][]): OutputLine[] {
  const byLine = new Map<number, Mutation>();
  const consumed = new Set<number>();
  for (const [index, mutation] of mutations) {
    if (byLine.size >= Math.floor(lines.length / 3)) break;
    const i = index % lines.length;
    const joins = mutation.kind === 'splice' || mutation.kind === 'glue';
    if (byLine.has(i) || consumed.has(i)) continue;
    if (joins && (i + 1 >= lines.length || byLine.has(i + 1) || consumed.has(i + 1))) continue;
    byLine.set(i, mutation);
    consumed.add(i);
    if (joins) consumed.add(i + 1);
  }
  const out: OutputLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = itemAt(lines, i);
    const bytes = encoder.encode(line);
    const m = byLine.get(i);
    if (!m) {
      out.push({ bytes, from: [i] });
      continue;
    }
    switch (m.kind) {
      case 'cut':
        out.push({
          bytes: bytes.subarray(0, Math.max(1, position(bytes.length - 1, m.at))),
          from: [i],
          mutation: m.kind,
        });
        break;
      case 'flip': {
        const flipped = bytes.slice();
        flipped[position(bytes.length - 1, m.at)] = m.byte;
        out.push({ bytes: flipped, from: [i], mutation: m.kind });
        break;
      }
      case 'splice':
      case 'glue': {
        const head =
          m.kind === 'glue' ? bytes : bytes.subarray(0, Math.max(1, position(bytes.length - 1, m.at)));
        out.push({ bytes: concat(head, encoder.encode(lines[i + 1])), from: [i, i + 1], mutation: m.kind });
        i++;
        break;
      }
      case 'nest': {
        const open = '{"n":'.repeat(m.depth);
        const close = '}'.repeat(m.closed ? m.depth : m.depth - 1);
        out.push({ bytes: encoder.encode(`${open}${line}${close}`), from: [i], mutation: m.kind });
        break;
      }
      case 'invalid-utf8': {
        const cut = position(bytes.length, m.at);
        out.push({
          bytes: concat(bytes.subarray(0, cut), Uint8Array.from(m.bytes), bytes.subarray(cut)),
          from: [i],
          mutation: m.kind,
        });
        break;
      }
      case 'latin1':
        out.push({ bytes: latin1(line), from: [i], mutation: m.kind });
        break;
      case 'garbage':
        out.push({ bytes: m.bytes, from: [i], mutation: m.kind });
        break;
    }
  }
  return out;
}

/** The file: lines joined by newlines, with or without a final one. */
export function joinLines(lines: OutputLine[], finalNewline: boolean): Uint8Array {
  const newline = Uint8Array.of(0x0a);
  const parts: Uint8Array[] = [];
  lines.forEach((line, k) => {
    parts.push(line.bytes);
    if (k < lines.length - 1 || finalNewline) parts.push(newline);
  });
  return concat(...parts);
}
