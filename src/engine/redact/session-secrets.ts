import { readEntryRecord } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import type { Session } from '../types';
import { findSecretsInText } from './find-secrets';
import { applyMasks, type KnownSecret } from './mask';
import { getMaskText, type SecretKind } from './secret-kinds';

// The secrets of a whole session, for the Secrets panel and the CLI: every string of every
// record (re-read in full by offset), each finding with where it occurs.

/** One occurrence of a secret. */
interface SecretFinding {
  id: string;
  kind: SecretKind;
  entryIndex: number;
  fileIndex: number;
  /** 1-based line in its file. */
  line: number;
  /** JSON path of the string within the record, e.g. `message.content[1].text`. */
  path: string;
  /** `message.content[N]`: the block index, when the string is inside a content block. */
  blockIndex?: number;
  /** Offset of the secret within that string (UTF-16 code units) and its length. */
  offset: number;
  length: number;
}

/** A secret and its occurrences (the same value, wherever it is). Never holds the secret itself. */
export interface SecretGroup {
  id: string;
  kind: SecretKind;
  count: number;
  /** Up to `MAX_LOCATIONS` occurrences, in transcript order. */
  findings: SecretFinding[];
  /** The text around the first occurrence with the secret masked. */
  preview: string;
  /** The secret's first characters, enough to recognise it (at most a quarter of it, 4 characters). */
  hint: string;
  chars: number;
}

export interface SessionSecrets {
  groups: SecretGroup[];
  /** Occurrences over all groups. */
  total: number;
}

const MAX_LOCATIONS = 50;
const PREVIEW_CONTEXT_CHARS = 32;
/** Records read between checks of the abort signal. */
const ABORT_CHECK_EVERY = 256;

function getHint(secret: string): string {
  const n = Math.min(4, Math.floor(secret.length / 4));
  return n > 0 ? `${secret.slice(0, n)}…` : '…';
}

/** Scans every record of the session. Linear in the session's bytes. */
export async function findSessionSecrets(
  session: Session,
  sources: ByteSource[],
  signal?: AbortSignal,
  /** Filled with each secret's value, for masking every occurrence (exports only; never shown). */
  known?: Map<string, KnownSecret>,
): Promise<SessionSecrets> {
  const groups = new Map<string, SecretGroup>();
  let total = 0;
  const visit = (value: unknown, path: string, entryIndex: number): void => {
    if (typeof value === 'string') {
      const matches = findSecretsInText(value);
      for (const [k, m] of matches.entries()) {
        total++;
        if (known && m.kind !== 'home-path' && !known.has(m.id)) {
          known.set(m.id, {
            id: m.id,
            kind: m.kind,
            value: value.slice(m.start, m.end),
            ...(m.rule ? { rule: m.rule } : {}),
          });
        }
        const entry = session.entries[entryIndex]!;
        const block = /^message\.content\[(\d+)\]/.exec(path);
        const finding: SecretFinding = {
          id: m.id,
          kind: m.kind,
          entryIndex,
          fileIndex: entry.fileIndex,
          line: entry.line,
          path,
          ...(block ? { blockIndex: Number(block[1]) } : {}),
          offset: m.start,
          length: m.end - m.start,
        };
        let group = groups.get(m.id);
        if (!group) {
          // The context is masked too (another secret may sit right next to this one), before it is cut.
          const from = Math.max(0, m.start - PREVIEW_CONTEXT_CHARS * 8);
          const before = applyMasks(
            value.slice(from, m.start),
            matches
              .slice(0, k)
              .filter((x) => x.start >= from)
              .map((x) => ({ ...x, start: x.start - from, end: x.end - from })),
          ).slice(-PREVIEW_CONTEXT_CHARS);
          const upto = Math.min(value.length, m.end + PREVIEW_CONTEXT_CHARS * 8);
          const after = applyMasks(
            value.slice(m.end, upto),
            matches
              .slice(k + 1)
              .filter((x) => x.end <= upto)
              .map((x) => ({ ...x, start: x.start - m.end, end: x.end - m.end })),
          ).slice(0, PREVIEW_CONTEXT_CHARS);
          group = {
            id: m.id,
            kind: m.kind,
            count: 0,
            findings: [],
            preview: `${before}${getMaskText(m.kind)}${after}`.replace(/\s+/g, ' '),
            hint: getHint(value.slice(m.start, m.end)),
            chars: m.end - m.start,
          };
          groups.set(m.id, group);
        }
        group.count++;
        if (group.findings.length < MAX_LOCATIONS) group.findings.push(finding);
      }
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) visit(v, `${path}[${i}]`, entryIndex);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        // A secret used as a key name (`{"sk-ant-…": …}`) is a secret too.
        if (k.length >= 8) visit(k, path ? `${path}.<key>` : '<key>', entryIndex);
        visit(v, path ? `${path}.${k}` : k, entryIndex);
      }
    }
  };
  for (let i = 0; i < session.entries.length; i++) {
    if (i % ABORT_CHECK_EVERY === 0) signal?.throwIfAborted();
    visit(await readEntryRecord(sources, session, i), '', i);
  }
  return { groups: [...groups.values()], total };
}

/** Every secret's value in the session (home paths aside: the rule finds each), to mask everywhere. */
export async function collectKnownSecrets(
  session: Session,
  sources: ByteSource[],
  signal?: AbortSignal,
): Promise<KnownSecret[]> {
  const known = new Map<string, KnownSecret>();
  await findSessionSecrets(session, sources, signal, known);
  return [...known.values()];
}
