import type { Session, SessionFile, SessionMemory } from '../types';
import { baseName } from './detect';
import type { DialectInfo, MetadataFileText } from './dialects/descriptor';
import { readMetadataFile } from './read-meta-file';
import type { SessionBuilder } from './session-builder';
import type { ByteSource } from './source';

/** A file kept beside the transcripts, not read as records: a dialect's metadata or session memory. */
export function isSideFile(file: SessionFile): boolean {
  return file.role === 'subagent-meta' || file.role === 'session-memory';
}

/** A session's side files, read whole and applied to the built session. */
export class SideFiles {
  private sessionMemory: SessionMemory | undefined;
  private readonly metadata: MetadataFileText[] = [];

  async read(
    file: SessionFile,
    source: ByteSource,
    builder: SessionBuilder,
    signal?: AbortSignal,
  ): Promise<void> {
    if (file.role === 'subagent-meta') {
      const meta = await readMetadataFile(source, file, builder);
      if (meta) this.metadata.push(meta);
      return;
    }
    // Plain text kept whole (`DialectFiles.sessionMemory`, a few thousand tokens): no records.
    const text = new TextDecoder().decode(await source.read(0, source.sizeBytes));
    signal?.throwIfAborted();
    file.lines = text === '' ? 0 : text.split('\n').length;
    this.sessionMemory ??= { name: source.name, text, chars: text.length };
  }

  /** Adds the session memory and folds each dialect's metadata files into `session`. */
  apply(session: Session, dialects: readonly DialectInfo[]): void {
    if (this.sessionMemory) session.sessionMemory = this.sessionMemory;
    for (const d of dialects) {
      const files = this.metadata.filter((m) => session.files[m.fileIndex]?.dialect === d.id);
      if (files.length === 0 || !d.files.metadata) continue;
      d.files.metadata.apply(session, files, (fileIndex, reason) =>
        session.issues.push({
          fileIndex,
          line: 0,
          code: 'wrong-shape',
          severity: 'warning',
          message: `${baseName(session.files[fileIndex]?.name ?? '')}: ${reason}`,
        }),
      );
    }
  }
}
