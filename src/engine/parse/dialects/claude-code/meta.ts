import type { Session, SessionFile } from '../../../types';
import type { DialectFiles } from '../descriptor';

// Claude Code 2.1.72+ writes `<session>/subagents/agent-<id>.meta.json` next to each subagent log
// (docs/sources.md#fmt-files, #fmt-subagents): `{"agentType":"Explore","description":"…"}`, later also `toolUseId` (the
// spawning Task/Agent call; docs/sources.md#claude-code-community, claude-code-log `dev-docs/agents.md` §5), `name`,
// `isFork`, `spawnDepth`. A small JSON object read whole: metadata, never a transcript.

/** What a subagent's `.meta.json` says; every field optional (older files have fewer). */
interface SubagentMeta {
  agentType?: string;
  description?: string;
  toolUseId?: string;
  name?: string;
}

/** A meta file read, with the agent id its name gives. */
interface SubagentMetaFile {
  fileIndex: number;
  agentId: string;
  meta: SubagentMeta;
}

/** Corpus copies flatten paths with `__`: match the name's tail. */
const META_NAME = /(?:^|[/\\]|__)agent-(.+)\.meta\.json$/i;

/** The agent id of `agent-<id>.meta.json`, or undefined when the name is not a subagent meta file. */
export function getMetaAgentId(name: string): string | undefined {
  return META_NAME.exec(name)?.[1];
}

/** Reads a meta file's text; returns the fields it understands, or an error message. */
function parseSubagentMeta(text: string): { meta: SubagentMeta } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: 'expected a JSON object' };
  const r = value as Record<string, unknown>;
  const meta: SubagentMeta = {};
  for (const key of ['agentType', 'description', 'toolUseId', 'name'] as const) {
    if (typeof r[key] === 'string') meta[key] = r[key];
  }
  return { meta };
}

/** The Task/Agent tool_use ids whose input names this description (input previews are JSON). */
function findByDescription(session: Session, description: string, taken: Set<string>): string | undefined {
  const needle = `"description":${JSON.stringify(description)}`;
  let found: string | undefined;
  for (const [id, entryIndex] of session.toolUseEntry) {
    if (taken.has(id)) continue;
    for (const block of session.entries[entryIndex]?.blocks ?? []) {
      if (block.kind !== 'tool-use' || block.id !== id || !block.inputPreview.includes(needle)) continue;
      if (found !== undefined) return undefined; // two calls with one description: do not guess
      found = id;
    }
  }
  return found;
}

/**
 * Labels each subagent file with its meta file's `agentType` and description, and links a
 * sidechain not linked yet to its Task/Agent call: by the meta's `toolUseId`, else by a unique
 * call whose input has the same `description`.
 */
function applySubagentMeta(session: Session, metas: readonly SubagentMetaFile[]): void {
  const taken = new Set<string>();
  for (const s of session.sidechains) if (s.spawnedBy) taken.add(s.spawnedBy);
  for (const { fileIndex, agentId, meta } of metas) {
    const metaFile = session.files[fileIndex];
    if (metaFile) label(metaFile, meta);
    const file = session.files.find(
      (f) => f.agentId === agentId && f.role !== 'subagent-meta' && f.role !== 'session-memory',
    );
    if (!file) continue;
    label(file, meta);
    const sidechain = session.sidechains.find((s) => s.fileIndex === file.index);
    if (!sidechain || sidechain.spawnedBy) continue;
    const spawnedBy =
      meta.toolUseId !== undefined && session.toolUseEntry.has(meta.toolUseId)
        ? meta.toolUseId
        : meta.description !== undefined
          ? findByDescription(session, meta.description, taken)
          : undefined;
    if (spawnedBy === undefined) continue;
    sidechain.spawnedBy = spawnedBy;
    taken.add(spawnedBy);
    for (const i of sidechain.entryIndices) session.entries[i]!.spawnedBy = spawnedBy;
  }
}

function label(file: SessionFile, meta: SubagentMeta): void {
  if (meta.agentType !== undefined) file.agentType = meta.agentType;
  if (meta.description !== undefined) file.agentDescription = meta.description;
}

/** The Claude Code descriptor's metadata-file hook (`DialectFiles.metadata`). */
export const CLAUDE_CODE_METADATA: NonNullable<DialectFiles['metadata']> = {
  agentIdOf: getMetaAgentId,
  apply(session, files, warn) {
    const metas: SubagentMetaFile[] = [];
    for (const { fileIndex, agentId, text } of files) {
      const parsed = parseSubagentMeta(text);
      if ('error' in parsed) warn(fileIndex, `subagent metadata is ${parsed.error}; ignored`);
      else metas.push({ fileIndex, agentId, meta: parsed.meta });
    }
    applySubagentMeta(session, metas);
  },
};
