import { formatHiddenThinkingToken } from '../query/hidden-thinking';
import { at } from '../assert';
import type { Block, Entry, Session, Usage } from '../types';

const contextOfUsage = (u: Usage): number =>
  u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

// A readable, stable text dump of a parsed session: one line per entry, then the API calls,
// compactions and issues. Golden tests compare it (STYLE.md §7); `compactlab inspect --dump`
// prints it.

const clip = (text: string, max = 48): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

function describeBlock(block: Block): string {
  switch (block.kind) {
    case 'text':
      return `text(${block.chars}) ${JSON.stringify(clip(block.text))}`;
    case 'thinking':
      return block.hidden ? formatHiddenThinkingToken(block.hidden, block.chars) : `thinking(${block.chars})`;
    case 'tool-use':
      return `tool_use ${block.name} ${block.id}${block.filePath ? ` ${block.filePath}` : ''}${block.command ? ` $ ${JSON.stringify(clip(block.command, 40))}` : ''}`;
    case 'tool-result':
      return `tool_result ${block.toolUseId}(${block.chars}${block.images ? `+${block.images}img` : ''})${block.isError ? ' error' : ''}${block.persisted ? ' persisted' : ''}`;
    case 'image':
    case 'document':
      return `${block.kind} ${block.mediaType}`;
    case 'other':
      return `${block.type}(${block.chars})`;
  }
}

function describeEntry(session: Session, e: Entry): string {
  const file = session.files.length > 1 ? `f${e.fileIndex}:` : '';
  const flags = [
    e.isSidechain && 'sidechain',
    e.isMeta && 'meta',
    e.isCompactSummary && 'compact-summary',
    e.isSynthetic && 'synthetic',
    e.spawnedBy && `under ${e.spawnedBy}`,
  ].filter(Boolean);
  const head = `${file}L${e.line} ${e.type || '(none)'}${e.subtype ? `/${e.subtype}` : ''}${e.detailType ? `:${e.detailType}` : ''}`;
  const call =
    e.apiCallIndex !== undefined
      ? ` call#${e.apiCallIndex}`
      : e.failedRequest
        ? ` failed-request(${e.failedRequest.reason})`
        : '';
  const body =
    e.blocks.map(describeBlock).join(' | ') || (e.summaryText ? JSON.stringify(clip(e.summaryText)) : '');
  return `${head}${call}${flags.length ? ` [${flags.join(', ')}]` : ''} ${body}`.trimEnd();
}

/** The session as text, for golden files and terminals. */
export function formatSessionDump(session: Session): string {
  const out: string[] = [
    `format ${session.format} · files ${session.files.map((f) => `${f.name}(${f.role})`).join(', ')}`,
  ];
  out.push('', 'entries:');
  for (const e of session.entries) out.push(`  ${describeEntry(session, e)}`);
  out.push('', 'api calls:');
  for (const c of session.apiCalls) {
    const u = c.usage;
    out.push(
      `  #${c.index} L${c.line} ${c.messageId ?? c.requestId ?? '?'} ctx=${c.contextTokens} (in ${u.inputTokens} + cc ${u.cacheCreationInputTokens} + cr ${u.cacheReadInputTokens}) out ${u.outputTokens}`,
    );
  }
  // Listed only when the session has some, so dumps of sessions without stay as they were.
  if (session.failedRequests?.length) {
    out.push('', 'failed requests (not API calls):');
    for (const f of session.failedRequests)
      out.push(
        `  L${f.line} ${f.reason} after call#${f.afterApiCall < 0 ? '-' : f.afterApiCall}${f.detail ? ` ${JSON.stringify(clip(f.detail))}` : ''}`,
      );
  }
  out.push('', 'compactions:');
  for (const c of session.compactions) {
    const tail =
      c.kind === 'compact'
        ? `pre ${c.preTokens ?? '?'} post ${c.postTokens ?? '?'} summary L${c.summaryEntryIndex === undefined ? '?' : at(session.entries, c.summaryEntryIndex).line} reattached ${c.reattachedEntryIndices.length}${c.customInstructions ? ` args ${JSON.stringify(c.customInstructions)}` : ''}${c.callUsage ? ` call f${c.callFileIndex} in ${contextOfUsage(c.callUsage)} out ${c.callUsage.outputTokens}` : ''}`
        : c.kind === 'truncate'
          ? `pre ${c.preTokens ?? '?'} post ${c.postTokens ?? '?'}`
          : `pre ${c.preTokens ?? '?'} saved ${c.tokensSaved ?? '?'} cleared ${c.clearedToolIds?.join(',') ?? ''}`;
    const range =
      (c.deletedRange ? ` deleted ${c.deletedRange[0]}-${c.deletedRange[1]}` : '') +
      (c.keptFromEntryIndex !== undefined
        ? ` kept from L${session.entries[c.keptFromEntryIndex]?.line ?? '?'}`
        : '');
    out.push(`  L${c.line} ${c.kind}/${c.trigger} after call#${c.apiCallBefore ?? '-'} ${tail}${range}`);
  }
  out.push('', 'issues:');
  // Messages name their JSON path already ("At message.content: …").
  for (const i of session.issues)
    out.push(`  f${i.fileIndex}:L${i.line} ${i.severity} ${i.code}: ${i.message}`);
  return `${out.join('\n')}\n`;
}
