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
