// A random string a (translated, JS) gitleaks rule matches: the fewest repetitions each quantifier
// allows (at least 1 where the rule's secret needs characters), a random character of each class
// (so the value is as random as a real key, and passes the rule's entropy floor), the first
// alternative of each group, nothing for assertions. Used to plant one secret per rule.

const CLASS_ESCAPES: Record<string, string> = {
  w: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
  d: '0123456789',
  s: ' ',
};

function expandClass(body: string): string[] {
  const chars: string[] = [];
  let i = 0;
  const atom = (): string => {
    if (body[i] === '\\') {
      const c = body[i + 1]!;
      if (c === 'x') {
        const v = String.fromCharCode(Number.parseInt(body.slice(i + 2, i + 4), 16));
        i += 4;
        return v;
      }
      i += 2;
      if (CLASS_ESCAPES[c]) return `\0${c}`;
      return ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[c] ?? c;
    }
    return body[i++]!;
  };
  while (i < body.length) {
    const a = atom();
    if (a.startsWith('\0')) {
      chars.push(...CLASS_ESCAPES[a[1]!]!);
      continue;
    }
    if (body[i] === '-' && i + 1 < body.length) {
      i++;
      const b = atom();
      for (let c = a.charCodeAt(0); c <= b.charCodeAt(0); c++) chars.push(String.fromCharCode(c));
    } else chars.push(a);
  }
  return chars;
}

export function generateFromRegex(source: string, random: () => number): string {
  let i = 0;
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  // Returns a generator function for the next atom, or undefined for an assertion.
  const parseAlternatives = (): (() => string) => {
    const alts: (() => string)[][] = [[]];
    while (i < source.length && source[i] !== ')') {
      if (source[i] === '|') {
        alts.push([]);
        i++;
        continue;
      }
      const atom = parseAtom();
      const q = /^(?:\{(\d+)(?:,(\d*))?\}|[*+?])\??/.exec(source.slice(i));
      let min = 1;
      let max = 1;
      if (q) {
        i += q[0].length;
        if (q[0][0] === '{') {
          min = Number(q[1]);
          max = q[2] === undefined ? min : q[2] === '' ? min + 16 : Number(q[2]);
        } else [min, max] = q[0][0] === '+' ? [1, 16] : q[0][0] === '*' ? [0, 16] : [0, 1];
      }
      if (atom) {
        const count = min;
        alts.at(-1)!.push(() => Array.from({ length: count }, atom).join(''));
        void max;
      }
    }
    const first = alts[0]!;
    return () => first.map((f) => f()).join('');
  };
  const parseAtom = (): (() => string) | undefined => {
    const c = source[i]!;
    if (c === '(') {
      const look = /^\(\?<?[=!]/.exec(source.slice(i));
      const head = /^\((?:\?:|\?<[A-Za-z_]\w*>)?/.exec(source.slice(i))!;
      i += look ? look[0].length : head[0].length;
      const inner = parseAlternatives();
      i++; // ')'
      return look ? undefined : inner;
    }
    if (c === '[') {
      let j = i + 1;
      const negated = source[j] === '^';
      if (negated) j++;
      let end = j + 1;
      while (source[end] !== ']') end += source[end] === '\\' ? 2 : 1;
      const chars = expandClass(source.slice(j, end));
      i = end + 1;
      if (negated && chars.length === 1 && chars[0] === '\n') return () => '.';
      if (negated) {
        const pool = [...CLASS_ESCAPES.w!].filter((x) => !chars.includes(x));
        return () => pick(pool);
      }
      return () => pick(chars);
    }
    if (c === '^' || c === '$') {
      i++;
      return undefined;
    }
    if (c === '\\') {
      const e = source[i + 1]!;
      i += 2;
      if (e === 'b' || e === 'B') return undefined;
      if (CLASS_ESCAPES[e]) return () => pick([...CLASS_ESCAPES[e]!]);
      if (e === 'x') {
        const v = String.fromCharCode(Number.parseInt(source.slice(i, i + 2), 16));
        i += 2;
        return () => v;
      }
      const lit = ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e;
      return () => lit;
    }
    i++;
    return () => c;
  };
  return parseAlternatives()();
}

/** A small seeded generator (mulberry32), so a failure reproduces. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
