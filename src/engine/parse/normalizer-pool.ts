import type { DialectDescriptor } from './dialects/descriptor';
import type { RecordContext, RecordNormalizer } from './dialects/record';
import type { SessionBuilder } from './session-builder';

/**
 * The normalizers of one parse: a new one per file, except for a dialect that reads all its files
 * with one (`sharedNormalizer`); and those with a `finish`, called once after the last file.
 */
export class NormalizerPool {
  private readonly shared = new Map<string, RecordNormalizer>();
  private readonly finishers: { normalizer: RecordNormalizer; fileIndex: number }[] = [];

  /** True once a normalizer that finishes after the last file has been handed out. */
  get hasFinishers(): boolean {
    return this.finishers.length > 0;
  }

  /** The normalizer for file `fileIndex` of `dialect` (`create`: the dialect's factory). */
  forFile(dialect: DialectDescriptor, create: () => RecordNormalizer, fileIndex: number): RecordNormalizer {
    let normalizer = dialect.sharedNormalizer ? this.shared.get(dialect.id) : undefined;
    if (!normalizer) {
      normalizer = create();
      if (dialect.sharedNormalizer) this.shared.set(dialect.id, normalizer);
      if (normalizer.finish) this.finishers.push({ normalizer, fileIndex });
    }
    return normalizer;
  }

  /** Calls each `finish`, its issues at the file it first read, the entries it held last. */
  finish(builder: SessionBuilder, previewChars: number): void {
    for (const { normalizer, fileIndex } of this.finishers) {
      const ctx: RecordContext = {
        fileIndex,
        line: 0,
        offsetBytes: 0,
        lengthBytes: 0,
        previewChars,
        issue: (code, severity, message, path) =>
          builder.issue(ctx.fileIndex, ctx.line, code, severity, message, path),
      };
      const held = normalizer.finish!(ctx, builder.entries.length);
      if (held) for (const e of held) builder.addEntry(e, {});
    }
  }
}
