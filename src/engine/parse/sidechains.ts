import { at } from '../assert';
import type { ApiCall, Compaction, Entry, SessionFile, Sidechain } from '../types';
import type { RecordExtras } from './dialects/record';

// A session's sidechains (docs/sources.md#fmt-subagents): a subagent's own file, or inline `isSidechain` entries
// (1.0.x) linked by uuid; the call that spawned each (its agent id, or its prompt), their usage,
// and a compaction call's log paired with the boundary it wrote.

export const contextOf = (u: ApiCall['usage']): number =>
  u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

export interface SidechainAcc {
  sidechain: Sidechain;
  callKeys: Set<string>;
  /** Output of each call so far: streamed lines carry a running snapshot, the max is the total. */
  outputByKey: Map<string, number>;
  lastTimestampMs?: number;
}

/** A compaction call's log ends just before its boundary is written (seen: < 1 s); allow slack. */
const COMPACTION_CALL_MATCH_MS = { before: 5_000, after: 10 * 60_000 };

/** Adds one (streamed part of a) call to a sidechain's count and usage. */
export function addSidechainCall(acc: SidechainAcc, entry: Entry): void {
  const key = entry.messageId ?? entry.requestId ?? entry.uuid ?? `#${entry.index}`;
  const total = acc.sidechain.usage;
  if (!acc.callKeys.has(key)) {
    acc.callKeys.add(key);
    acc.sidechain.apiCalls++;
    if (entry.usage) {
      acc.sidechain.peakContextTokens = Math.max(acc.sidechain.peakContextTokens, contextOf(entry.usage));
      total.inputTokens += entry.usage.inputTokens;
      total.cacheCreationInputTokens += entry.usage.cacheCreationInputTokens;
      total.cacheReadInputTokens += entry.usage.cacheReadInputTokens;
    }
  }
  // Same rule as the main thread (docs/sources.md#fmt-usage): input once, output the largest snapshot.
  const output = entry.usage?.outputTokens ?? 0;
  const seen = acc.outputByKey.get(key) ?? 0;
  if (output > seen) {
    total.outputTokens += output - seen;
    acc.outputByKey.set(key, output);
  }
}

/** Context of the first call after a boundary in the boundary's own file (a call with usage). */
function nextCallContext(entries: readonly Entry[], c: Compaction): number | undefined {
  for (let i = c.entryIndex + 1; i < entries.length; i++) {
    const e = at(entries, i);
    if (e.fileIndex !== c.fileIndex) break; // a file's entries are read in one run
    if (e.kind === 'assistant' && e.usage && contextOf(e.usage) > 0) return contextOf(e.usage);
  }
  return undefined;
}

export class SidechainTracker {
  private readonly accs: SidechainAcc[] = [];
  private readonly byFile = new Map<number, SidechainAcc>();
  /** Inline (1.0.x) sidechains: uuid → accumulator of the sidechain it belongs to. */
  private readonly inlineOf = new Map<string, SidechainAcc>();
  /** Inline sidechains by the tool_use id their records name as their spawner. */
  private readonly inlineBySpawner = new Map<string, SidechainAcc>();
  /** A Task/Agent result's agent id → its tool_use id. */
  private readonly agentToToolUse = new Map<string, string>();
  /** A Task/Agent call's prompt → its tool_use id (1.0.x inline sidechains start with it). */
  private readonly taskPrompts = new Map<string, string>();

  noteSpawn(agentId: string, toolUseId: string): void {
    this.agentToToolUse.set(agentId, toolUseId);
  }

  noteTaskPrompts(prompts: readonly { toolUseId: string; prompt: string }[]): void {
    for (const t of prompts) this.taskPrompts.set(t.prompt, t.toolUseId);
  }

  /** The sidechain a subagent (or compaction-call) file is. */
  forFile(file: SessionFile): SidechainAcc {
    let acc = this.byFile.get(file.index);
    if (!acc) {
      acc = this.create(file.index, file.agentId);
      this.byFile.set(file.index, acc);
    }
    return acc;
  }

  /**
   * The inline sidechain an `isSidechain` entry belongs to: its parent's; else, for a record that
   * names the call that spawned it (`entry.spawnedBy`: the SDK stream's `parent_tool_use_id`), that
   * call's; or a new one.
   */
  inline(entry: Entry, extras: RecordExtras): SidechainAcc {
    const parent = entry.parentUuid ? this.inlineOf.get(entry.parentUuid) : undefined;
    const spawner = entry.spawnedBy;
    const known = parent ?? (spawner !== undefined ? this.inlineBySpawner.get(spawner) : undefined);
    const acc =
      known ??
      this.create(
        entry.fileIndex,
        entry.agentId,
        spawner ?? (extras.promptText !== undefined ? this.taskPrompts.get(extras.promptText) : undefined),
      );
    if (!known && spawner !== undefined) this.inlineBySpawner.set(spawner, acc);
    if (entry.uuid) this.inlineOf.set(entry.uuid, acc);
    return acc;
  }

  list(): Sidechain[] {
    return this.accs.map((a) => a.sidechain);
  }

  /**
   * Pairs each compaction call's log with the boundary written right after it ends, so a card can
   * say what the compaction cost. Nearest boundary in time, each boundary at most once: the main
   * thread's or a subagent's (a subagent compacts too, and its call has its own `agent-acompact-*`
   * log: adrianstanca1/vps-config, Claude Code 2.1.81). A subagent's boundary also takes its
   * `postTokens` from the next call of its own log.
   */
  linkCompactionCalls(
    compactions: readonly Compaction[],
    files: readonly SessionFile[],
    entries: readonly Entry[],
  ): void {
    const boundaries = compactions.filter((c) => {
      const role = at(files, c.fileIndex).role;
      return c.kind === 'compact' && c.timestampMs !== undefined && (role === 'main' || role === 'subagent');
    });
    for (const c of boundaries)
      if (at(files, c.fileIndex).role === 'subagent' && c.postTokens === undefined)
        c.postTokens = nextCallContext(entries, c);
    for (const acc of this.accs) {
      const end = acc.lastTimestampMs;
      if (at(files, acc.sidechain.fileIndex).role !== 'compaction-call' || end === undefined) continue;
      let best: Compaction | undefined;
      for (const c of boundaries) {
        const delta = c.timestampMs! - end;
        if (c.callFileIndex !== undefined || delta < -COMPACTION_CALL_MATCH_MS.before) continue;
        if (delta > COMPACTION_CALL_MATCH_MS.after) continue;
        if (!best || Math.abs(delta) < Math.abs(best.timestampMs! - end)) best = c;
      }
      if (best) {
        best.callFileIndex = acc.sidechain.fileIndex;
        best.callUsage = acc.sidechain.usage;
      }
    }
  }

  /** A sidechain known by its agent id takes the call that spawned it, its entries too. */
  linkSpawners(entries: readonly Entry[]): void {
    for (const acc of this.accs) {
      const sc = acc.sidechain;
      if (!sc.spawnedBy && sc.agentId) {
        sc.spawnedBy = this.agentToToolUse.get(sc.agentId);
        if (sc.spawnedBy) for (const i of sc.entryIndices) at(entries, i).spawnedBy = sc.spawnedBy;
      }
    }
  }

  private create(fileIndex: number, agentId?: string, spawnedBy?: string): SidechainAcc {
    const acc: SidechainAcc = {
      sidechain: {
        fileIndex,
        agentId,
        spawnedBy,
        entryIndices: [],
        apiCalls: 0,
        peakContextTokens: 0,
        usage: { inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 },
      },
      callKeys: new Set(),
      outputByKey: new Map(),
    };
    this.accs.push(acc);
    return acc;
  }
}
