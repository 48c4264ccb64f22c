import type { SessionFile } from '../types';
import { baseName } from './detect';
import type { MetadataFileText } from './dialects/descriptor';
import type { SessionBuilder } from './session-builder';
import type { ByteSource } from './source';

/** Real metadata files are under 1 KB (docs/sources.md#fmt-files); anything this big is not one. */
const METADATA_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads a dialect's metadata file (`DialectFiles.metadata`) whole. One too large to be one becomes a
 * warning on that file (never "not a transcript": it is not meant to be one).
 */
export async function readMetadataFile(
  source: ByteSource,
  file: SessionFile,
  builder: SessionBuilder,
): Promise<MetadataFileText | undefined> {
  if (source.sizeBytes > METADATA_LIMIT_BYTES) {
    builder.issue(
      file.index,
      0,
      'wrong-shape',
      'warning',
      `${baseName(source.name)}: metadata file is ${source.sizeBytes.toLocaleString('en-US')} bytes, too large for one; ignored`,
    );
    return undefined;
  }
  const text = new TextDecoder().decode(await source.read(0, source.sizeBytes));
  file.lines = text === '' ? 0 : text.split('\n').filter((l) => l.trim() !== '').length;
  return { fileIndex: file.index, agentId: file.agentId ?? '', text };
}
