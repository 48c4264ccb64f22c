// Records of a turn beside the conversation: the file-history snapshot written before each prompt,
// the API errors (overloaded, retried) of the story's flaky call, the end of a turn, and a prompt's
// content with its pasted screenshot.

import { randomUuid, type Rng } from './prng';
import type { JsonObject, TranscriptWriter } from './transcript-writer';

/** A 16-hex-digit name for a backup file, stable for a path and seed. */
function hash16(text: string, seed: number): string {
  let h1 = 0x811c9dc5 ^ seed;
  let h2 = 0x1234567 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619);
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 2246822519);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** The files Claude Code backs up (file-history): a version per file, bumped when a turn changed it. */
export class FileHistory {
  private readonly backups = new Map<string, { version: number; timeMs: number }>();
  private readonly changedThisTurn = new Set<string>();

  constructor(private readonly seed: number) {}

  changed(path: string): void {
    this.changedThisTurn.add(path);
  }

  /** The `file-history-snapshot` record written before a prompt: every tracked file's latest backup. */
  snapshot(m: TranscriptWriter, rng: Rng, messageId: string): JsonObject {
    for (const path of this.changedThisTurn) {
      const b = this.backups.get(path);
      this.backups.set(path, {
        version: (b?.version ?? 0) + 1,
        timeMs: m.clockMs - rng.int(5_000, 60_000),
      });
    }
    this.changedThisTurn.clear();
    const tracked: JsonObject = {};
    for (const [path, b] of this.backups) {
      tracked[path] = {
        backupFileName: `${hash16(path, this.seed)}@v${b.version}`,
        version: b.version,
        backupTime: m.iso(b.timeMs),
      };
    }
    return {
      type: 'file-history-snapshot',
      messageId,
      snapshot: { messageId, trackedFileBackups: tracked, timestamp: m.iso() },
      isSnapshotUpdate: false,
    };
  }
}

export function writeApiErrors(m: TranscriptWriter, rng: Rng): void {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const retryInMs = 500 * 2 ** (attempt - 1) * (1 + rng.next() * 0.25);
    m.tick(rng.int(1500, 9000));
    m.system(
      'api_error',
      {
        level: 'error',
        error: {
          status: 529,
          headers: { 'content-type': 'application/json', 'x-should-retry': 'true' },
          requestID: null,
          error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
        retryInMs,
        retryAttempt: attempt,
        maxRetries: 10,
      },
      {},
    );
    m.tick(retryInMs);
  }
}

/** The end of a turn that was not interrupted: the stop hook ran, then the turn's duration. */
export function writeTurnEnd(m: TranscriptWriter, rng: Rng, turnStartMs: number, turnMessages: number): void {
  m.tick(rng.int(40, 200));
  m.system(
    'stop_hook_summary',
    {
      hookCount: 1,
      hookInfos: [{ command: 'npm run -s lint' }],
      hookErrors: [],
      preventedContinuation: false,
      stopReason: '',
      hasOutput: false,
      level: 'suggestion',
    },
    { tail: { toolUseID: randomUuid(rng) } },
  );
  m.tick(rng.int(5, 30));
  m.system('turn_duration', {
    durationMs: m.clockMs - turnStartMs,
    messageCount: turnMessages,
    isMeta: false,
  });
}

/** A 32×12 PNG of coloured bars, standing in for a pasted screenshot. */
const SCREENSHOT_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAMCAIAAACMdijuAAAAXklEQVR42mPQ0DGhKWJA5sw4XImHm7j+PVYjHuSU4hFhINJ0PBbgt4yBSNMJWoDLHwxEmk5+EBFpOqVBREkkEw4iPKYDDcWPiE1FlEcyviCiMJIJBBHlkUxsRqMRAgDSnBgV6YxHWgAAAABJRU5ErkJggg==';

/** A prompt's content: its text, with the pasted screenshot after it when it has one. */
export function promptContent(text: string, withImage: boolean): string | JsonObject[] {
  return withImage
    ? [
        { type: 'text', text },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SCREENSHOT_PNG_BASE64 } },
      ]
    : text;
}
