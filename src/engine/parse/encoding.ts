/** Bytes looked at to tell UTF-16 text from UTF-8: a few dozen characters of JSON. */
export const ENCODING_SNIFF_BYTES = 64;

export type Utf16ByteOrder = 'little-endian' | 'big-endian';

/**
 * Says whether a file's first bytes are UTF-16: a byte-order mark (FF FE or FE FF), or ASCII
 * text with a NUL in every other byte. UTF-8 JSON lines never hold a NUL byte (JSON escapes
 * control characters), so the NUL pattern cannot come from a transcript.
 */
export function detectUtf16(head: Uint8Array): Utf16ByteOrder | undefined {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'little-endian';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'big-endian';
  const pairs = Math.floor(Math.min(head.length, ENCODING_SNIFF_BYTES) / 2);
  if (pairs < 2) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) evenNul++;
    if (head[i + 1] === 0) oddNul++;
  }
  if (oddNul === pairs && evenNul === 0) return 'little-endian';
  if (evenNul === pairs && oddNul === 0) return 'big-endian';
  return undefined;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** True when `bytes` are well-formed UTF-8 (a U+FFFD in the decoded text may be a real one). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Bytes looked at to tell binary data from text (ours: a few lines' worth, one small read). */
export const BINARY_SNIFF_BYTES = 512;

/** File signatures a transcript is mistaken for most, and what each one is in words. */
const SIGNATURES: readonly { bytes: readonly number[]; what: string }[] = [
  { bytes: [0x1f, 0x8b], what: 'gzip-compressed data: decompress it first (gunzip)' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed data: decompress it first (unzstd)' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive: unpack it first' },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], what: 'an SQLite database' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
];

/**
 * What a file's first bytes say it is when they are not text (after the UTF-16 check): a known
 * signature, else binary data when they hold a NUL or mostly control bytes. JSON text escapes
 * every control character, so neither comes from a transcript's lines; undefined for text.
 */
export function describeBinary(head: Uint8Array): string | undefined {
  for (const { bytes, what } of SIGNATURES)
    if (head.length >= bytes.length && bytes.every((b, i) => head[i] === b)) return what;
  const n = Math.min(head.length, BINARY_SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b === 0) return 'binary data, not text';
    // Tab, newline, form feed, carriage return and escape occur in text files; other C0 bytes do not.
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b) control++;
  }
  // Ours: one byte in 20, far above a text file's share (none) and half of random bytes' (26 of 256).
  return n > 0 && control * 20 >= n ? 'binary data, not text' : undefined;
}
