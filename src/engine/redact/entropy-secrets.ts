import { getShannonEntropy } from './gitleaks-rules';

// Secrets no rule names: a long random-looking token standing alone (a whole line) or after a word
// that introduces a credential (key, token, secret, password, Bearer, --access-token, …).
//
// Threshold (ours): ≥ 20 characters and ≥ MIN_ENTROPY_BITS bits per character, with letters and
// digits both present. A random base62 token of 20 characters has about 4.0 bits per character
// (its 20 characters are nearly all distinct: log2(20) = 4.3 is the ceiling), 32 characters about
// 4.6, and holds a lower-case letter, a capital and a digit; English words, identifiers and paths of that length stay under 3.7 mostly, and the shapes
// below (uuids, hex hashes, ids with a known prefix, paths, versions) are excluded by form, since
// their entropy alone would pass. The false positives this leaves on the real corpora are counted
// by tests/redact/entropy-corpus.test.ts against the budget in docs/sharing-and-privacy.md.

const MIN_TOKEN_CHARS = 20;
/** Longer random blobs are signatures (thinking blocks), images and encodings, not credentials. */
const MAX_TOKEN_CHARS = 200;
const MIN_ENTROPY_BITS = 4;

/** Base64, base64url and the usual token alphabets; `=` only as padding at the end. */
const TOKEN = /^[A-Za-z0-9+/_.~-]+={0,2}$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const HEX = /^(?:0x)?[0-9a-f]+$/i;
/** Ids agents and APIs print (tool calls, messages, requests, files): not secrets. */
const KNOWN_ID =
  /^(?:[a-z]+_)*(?:toolu|srvtoolu|msg|req|file|call|fc|resp|chatcmpl|run|thread|asst|evt|cus|sess|ses|prt|ch|compl|cse)_|^[a-z_]{2,24}_01[1-9A-HJ-NP-Za-km-z]{20,}$/i;
const PATH_LIKE = /^(?:\/|\.{1,2}\/|~\/)|\/\/|\.[A-Za-z0-9]{1,5}$|^[\w.-]+(?:\/[\w.-]+){2,}$/;
const VERSION_LIKE = /^v?\d+(?:\.\d+){1,3}/;
const IDENTIFIER_LIKE = /^[A-Za-z_][A-Za-z_.-]*\d{0,4}$/;
/** `aside_question-ac9ee4804d56a951`: a name and a hex id (agent and task ids). */
const NAMED_HEX_ID = /^[A-Za-z][A-Za-z_.-]*[-_][0-9a-f]{6,}$/;

/** `trv2StatDynamicRingTable`, `Config.in.Product_Packages`: mostly words, not random. */
function isWordLike(token: string): boolean {
  let wordChars = 0;
  for (const m of token.matchAll(/[A-Z]?[a-z]{3,}/g)) wordChars += m[0].length;
  return wordChars * 2 >= token.length;
}

/** Whether a token is random enough, and of no excluded shape, to be a secret. */
export function isHighEntropySecret(token: string): boolean {
  if (token.length < MIN_TOKEN_CHARS || token.length > MAX_TOKEN_CHARS || !TOKEN.test(token)) return false;
  // Random tokens of 20+ base62 characters hold all three; words, names and dates rarely do.
  if (!/[0-9]/.test(token) || !/[a-z]/.test(token) || !/[A-Z]/.test(token)) return false;
  if (UUID.test(token) || HEX.test(token) || KNOWN_ID.test(token) || PATH_LIKE.test(token)) return false;
  if (VERSION_LIKE.test(token) || IDENTIFIER_LIKE.test(token) || NAMED_HEX_ID.test(token)) return false;
  if (isWordLike(token)) return false;
  return getShannonEntropy(token) >= MIN_ENTROPY_BITS;
}

/**
 * A word that introduces a credential and a separator; the token follows: a whole run of
 * TOKEN_CHARS of 20 to 512 characters. The run is measured by a scan, not by the pattern: a
 * pattern retried its run 500 times at every credential word (1 MB of `api_key_`: 3.3 s), and the
 * words inside one run share its end (measured once).
 */
const AFTER_WORD =
  /(?:key|token|secret|password|passwd|pwd|pass|bearer|apikey|api[_-]key|auth|credentials?|--access-token|--token|--api-key|--password)(?![A-Za-z0-9])["']?[ \t]{0,4}[=:]?[ \t]{0,4}["']?/iy;
const MAX_AFTER_WORD_TOKEN_CHARS = 512;

/** `[A-Za-z0-9+/=_.~-]`. */
function isTokenChar(code: number): boolean {
  return (
    isAlphaNumeric(code) ||
    code === 43 || // +
    code === 47 || // /
    code === 61 || // =
    code === 95 || // _
    code === 46 || // .
    code === 126 || // ~
    code === 45 // -
  );
}

function isAlphaNumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** A line that is one token (quoted or not): fails at the first space, so most lines cost little. */
const LONE_TOKEN_LINE = /[ \t"'`]{0,8}[A-Za-z0-9+/_.~-]{20,200}={0,2}[ \t"'`,]{0,8}(?:\r?\n|$)/y;

/**
 * Where AFTER_WORD can start: each credential word's first letter (not inside a longer word) or a
 * `--`, found by one case-insensitive pass (ours: one pass instead of a lower-cased copy of the
 * text and eleven `indexOf` scans, about 40 % less time on the benchmark session, same starts).
 */
const AFTER_WORD_START = /(?<![A-Za-z0-9])(?:key|token|secret|pass|pwd|bearer|api|auth|credential)|--/gi;

/** `[start, end)` of each high-entropy secret in a text, in order. Linear in the text's length. */
export function findHighEntropySecrets(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  // A token alone on its line (or as the whole text).
  for (let from = 0; from <= text.length; ) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    LONE_TOKEN_LINE.lastIndex = from;
    if (to - from >= MIN_TOKEN_CHARS && to - from <= MAX_TOKEN_CHARS + 8 && LONE_TOKEN_LINE.test(text)) {
      const line = text.slice(from, to);
      const token = line.trim().replace(/^["'`]|["'`,]$/g, '');
      if (isHighEntropySecret(token) && !HEX.test(token)) {
        const start = from + line.indexOf(token);
        out.push({ start, end: start + token.length });
      }
    }
    from = to + 1;
  }
  if (text.length >= MIN_TOKEN_CHARS) {
    const starts: number[] = [];
    AFTER_WORD_START.lastIndex = 0;
    for (let m = AFTER_WORD_START.exec(text); m !== null; m = AFTER_WORD_START.exec(text)) {
      starts.push(m.index);
      // `---`: a `--` at each dash, as `--token` may follow any of them.
      if (m[0] === '--') AFTER_WORD_START.lastIndex = m.index + 1;
    }
    // The run last measured: [runFrom, runEnd) holds token characters only and ends at a non-token.
    let runFrom = -1;
    let runEnd = -1;
    for (const at of starts) {
      AFTER_WORD.lastIndex = at;
      const m = AFTER_WORD.exec(text);
      if (!m) continue;
      const start = at + m[0].length;
      if (start < runFrom || start >= runEnd) {
        runFrom = start;
        runEnd = start;
        while (runEnd < text.length && isTokenChar(text.charCodeAt(runEnd))) runEnd++;
      }
      const length = runEnd - start;
      if (length < MIN_TOKEN_CHARS || length > MAX_AFTER_WORD_TOKEN_CHARS) continue;
      if (!isHighEntropySecret(text.slice(start, runEnd))) continue;
      out.push({ start, end: runEnd });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
