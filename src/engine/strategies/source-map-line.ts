// The source line of a compiled strategy's error: a stack frame's line and column in the emitted
// JavaScript, mapped back through the compiler's source map (version 3, "mappings" in base64 VLQ:
// https://tc39.es/ecma426/). Both hosts use it: the CLI (esbuild's map) and the page's sandbox
// worker (the TypeScript worker's map). Linear in the map's length.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** Decodes one VLQ segment into its fields; undefined when malformed. */
function decodeSegment(segment: string): number[] | undefined {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const d = DIGIT.get(c);
    if (d === undefined) return undefined;
    value += (d & 31) << shift;
    if (d & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/**
 * The 1-based source line of generated position (`line` 1-based, `column` 1-based as stack frames
 * give them): the last mapping at or before it on that line (or the line's first one).
 */
export function getSourceLine(mappings: string, line: number, column: number): number | undefined {
  let sourceLine = 0;
  const lines = mappings.split(';');
  let found: number | undefined;
  for (let l = 0; l < lines.length && l < line; l++) {
    let genColumn = 0;
    for (const segment of lines[l]!.split(',')) {
      if (segment === '') continue;
      const fields = decodeSegment(segment);
      if (!fields) return undefined;
      genColumn += fields[0]!;
      if (fields.length >= 4) {
        sourceLine += fields[2]!;
        if (l === line - 1 && (genColumn <= column - 1 || found === undefined)) found = sourceLine + 1;
      }
    }
  }
  return found;
}

/**
 * The first `<fileName>:<line>:<column>` frame of an error's stack, mapped to its source line;
 * `lineOffset`: lines of the file before the compiled code (the page's sandbox prepends its own).
 */
export function getErrorSourceLine(
  stack: string,
  fileName: string,
  mappings?: string,
  lineOffset = 0,
): number | undefined {
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(stack);
  if (!m) return undefined;
  const [line, column] = [Number(m[1]) - lineOffset, Number(m[2])];
  if (line < 1) return undefined;
  return mappings === undefined ? line : getSourceLine(mappings, line, column);
}
