import type { TitleNote } from './dialects/record';
import type { SessionTitle } from '../types';

// The session's name, from the names its main file's records state (`RecordExtras.title`): what
// the agent's own session list shows. The highest rank wins, then the latest of that rank; a
// name tied to an entry (`leafUuid`) holds only when that entry is in the session, since a Claude
// Code session file begins with `summary` records of the sessions before it (a real corpus file
// begins with fifteen, their leafUuid in none of its records). The library's scan skips most lines, so it does not know
// every uuid: there a tied name holds when a record naming nothing came before it (ours: the
// earlier sessions' summaries lead the file; on every real corpus file the two rules agree,
// tests/parse/session-title.test.ts).

/** Longest name kept (ours: a name is a line; a longer one is cut, as the list would cut it). */
const MAX_TITLE_CHARS = 200;

interface Noted extends TitleNote {
  line: number;
  /** A main-file record naming nothing came before this one. */
  afterRecords: boolean;
}

export class SessionTitles {
  private readonly notes: Noted[] = [];

  note(title: TitleNote, line: number, afterRecords: boolean): void {
    // Kept cut: a name is a line, and a record's text can be megabytes.
    const text = title.text.trimStart().slice(0, 4 * MAX_TITLE_CHARS);
    this.notes.push({ ...title, text, line, afterRecords });
  }

  /**
   * The name, given which entry uuids are the session's (`uuidsKnown`: all of them were read);
   * undefined when none holds.
   */
  resolve(isSessionUuid: (uuid: string) => boolean, uuidsKnown: boolean): SessionTitle | undefined {
    const holds = (n: Noted) =>
      n.leafUuid === undefined || (uuidsKnown ? isSessionUuid(n.leafUuid) : n.afterRecords);
    const byRank = new Map<number, Noted>();
    for (const n of this.notes) {
      if (n.text.trim() === '') byRank.delete(n.rank);
      else if (holds(n)) byRank.set(n.rank, n);
    }
    let best: Noted | undefined;
    for (const n of byRank.values()) if (!best || n.rank > best.rank) best = n;
    if (!best) return undefined;
    return {
      text: best.text.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS),
      source: best.source,
      line: best.line,
    };
  }
}
