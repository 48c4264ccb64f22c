import type { FileAccess } from '../compact/restore';
import { getDialectInfo } from '../parse/dialects/descriptors';
import type { PreparedReplay } from '../simulation/prepared';
import { estimateBlockTokens, estimateEntryTokens, estimateTextTokens } from '../tokens/estimate';
import type { Session } from '../types';
import type { CallAxis } from './prepare-call-axis';

// Phase 5 of `prepareReplay`: what a post-compaction restoration may re-attach: file accesses,
// todo lists, plans. Which tools say so is the dialect's (`DialectDescriptor.restoration`); what is
// re-attached, and how much, is the strategy's (compact/restore.ts, strategies/claude-code/index.ts).

/** An empty todo list serializes to `{"todos":[]}`: nothing to restore (`fD5` returns null). */
const EMPTY_TODOS_CHARS = 14;

type RestorationInputs = Pick<
  PreparedReplay,
  'fileAccesses' | 'todos' | 'plans' | 'skills' | 'planMode' | 'sessionStartTokens'
>;

/** The restoration sources of the context entries, by their file's dialect. */
export function getRestorationInputs(session: Session, axis: CallAxis): RestorationInputs {
  const { entries } = session;
  const { ctxEntry } = axis;
  const accessPos: number[] = [];
  const accesses: FileAccess[] = [];
  const lastSize = new Map<string, number>();
  const todoPos: number[] = [];
  const todoEntry: number[] = [];
  const todoTokens: number[] = [];
  const planPos: number[] = [];
  const planEntry: number[] = [];
  const planTokens: number[] = [];
  const planPaths: (string | undefined)[] = [];
  const skillPos: number[] = [];
  const skillEntry: number[] = [];
  const skillTokens: number[] = [];
  const skillNames: string[] = [];
  const modePos: number[] = [];
  const modeOn: number[] = [];
  let sessionStartTokens = 0;
  /** Skill tool_use ids whose body (the meta user message after the result) is still to come. */
  const skillByUse = new Map<string, string>();
  let awaitingBody: string | undefined;
  const firstCallPos = axis.callPos[0] ?? ctxEntry.length;
  for (let p = 0; p < ctxEntry.length; p++) {
    const entry = entries[ctxEntry[p]!]!;
    const hints = getDialectInfo(session.files[entry.fileIndex]?.dialect ?? session.format)?.restoration;
    if (!hints) continue;
    if (entry.kind === 'attachment') {
      // Hook output before the first call is the SessionStart hooks' (step 8 runs them again).
      if (p < firstCallPos && entry.detailType && hints.hookAttachments?.includes(entry.detailType))
        sessionStartTokens += estimateEntryTokens(entry);
      continue;
    }
    if (entry.kind === 'user') {
      for (const block of entry.blocks)
        if (block.kind === 'tool-result' && skillByUse.has(block.toolUseId))
          awaitingBody = skillByUse.get(block.toolUseId);
      if (awaitingBody !== undefined && entry.isMeta) {
        skillPos.push(p);
        skillEntry.push(entry.index);
        skillTokens.push(estimateEntryTokens(entry));
        skillNames.push(awaitingBody);
        awaitingBody = undefined;
      }
      continue;
    }
    if (entry.kind !== 'assistant') continue;
    awaitingBody = undefined;
    for (const block of entry.blocks) {
      if (block.kind !== 'tool-use') continue;
      if (block.name === hints.skillTool) {
        skillByUse.set(block.id, block.inputPreview?.match(/"skill"\s*:\s*"([^"]+)"/)?.[1] ?? block.id);
        continue;
      }
      if (block.name === hints.planModeTool || (hints.planModeTool && block.name === hints.planTool)) {
        modePos.push(p);
        modeOn.push(block.name === hints.planModeTool ? 1 : 0);
      }
      if (block.name === hints.todoTool) {
        todoPos.push(p);
        todoEntry.push(entry.index);
        todoTokens.push(block.inputChars <= EMPTY_TODOS_CHARS ? 0 : estimateTextTokens(block.inputChars));
        continue;
      }
      if (block.name === hints.planTool) {
        planPos.push(p);
        planEntry.push(entry.index);
        planTokens.push(estimateTextTokens(block.inputChars));
        planPaths.push(undefined);
        continue;
      }
      if (!hints.fileTools.includes(block.name) || !block.filePath) continue;
      const path = block.filePath;
      const isRead = hints.readTools.includes(block.name);
      let size: number;
      if (isRead) {
        const resultEntry = session.toolResultEntry.get(block.id);
        const result =
          resultEntry === undefined
            ? undefined
            : entries[resultEntry]!.blocks.find((b) => b.kind === 'tool-result' && b.toolUseId === block.id);
        size =
          result?.kind === 'tool-result' && !result.isError
            ? estimateBlockTokens(result)
            : (lastSize.get(path) ?? 0);
      } else if (hints.wholeWriteTools.includes(block.name)) size = estimateTextTokens(block.inputChars);
      else size = lastSize.get(path) ?? estimateTextTokens(block.inputChars);
      lastSize.set(path, size);
      // Writing or editing a plan file is writing the plan; reading one is not.
      if (hints.planPath?.test(path) && !isRead) {
        planPos.push(p);
        planEntry.push(entry.index);
        planTokens.push(size);
        planPaths.push(path);
      }
      accessPos.push(p);
      accesses.push({ path, tool: block.name, entryIndex: entry.index, fileTokens: size });
    }
  }
  return {
    fileAccesses: { pos: Int32Array.from(accessPos), list: accesses },
    todos: {
      pos: Int32Array.from(todoPos),
      entryIndex: Int32Array.from(todoEntry),
      tokens: Float64Array.from(todoTokens),
    },
    plans: {
      pos: Int32Array.from(planPos),
      entryIndex: Int32Array.from(planEntry),
      tokens: Float64Array.from(planTokens),
      paths: planPaths,
    },
    skills: {
      pos: Int32Array.from(skillPos),
      entryIndex: Int32Array.from(skillEntry),
      tokens: Float64Array.from(skillTokens),
      names: skillNames,
    },
    planMode: { pos: Int32Array.from(modePos), on: Uint8Array.from(modeOn) },
    sessionStartTokens,
  };
}
