import type { SessionFile } from '../types';
import { baseName } from './detect';
import { parseSubagentMeta, type SubagentMetaFile } from './dialects/claude-code-meta';
import type { SessionBuilder } from './session-builder';
import type { ByteSource } from './source';

/** Real meta files are under 1 KB (FORMAT.md §1); anything this big is not one. */
const META_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads a subagent's `.meta.json` whole. A file that cannot be read as one becomes a warning on
 * that file (never "not a transcript": it is not meant to be one).
 */
export async function readSubagentMetaFile(
  source: ByteSource,
  file: SessionFile,
  builder: SessionBuilder,
): Promise<SubagentMetaFile | undefined> {
  const warn = (reason: string) =>
    builder.issue(
      file.index,
      0,
      'wrong-shape',
      'warning',
      `${baseName(source.name)}: subagent metadata ${reason}; ignored`,
    );
  if (source.sizeBytes > META_LIMIT_BYTES) {
    warn(`is ${source.sizeBytes.toLocaleString('en-US')} bytes, too large for a .meta.json`);
    return undefined;
  }
  const text = new TextDecoder().decode(await source.read(0, source.sizeBytes));
  file.lines = text === '' ? 0 : text.split('\n').filter((l) => l.trim() !== '').length;
  const parsed = parseSubagentMeta(text);
  if ('error' in parsed) {
    warn(`is ${parsed.error}`);
    return undefined;
  }
  return { fileIndex: file.index, agentId: file.agentId ?? '', meta: parsed.meta };
}
