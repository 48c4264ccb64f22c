import type { BoundaryCandidate } from './detail';
import type { Block, Entry, TokenCount } from '../../types';

// The boundary search, its scores and its token estimator, as docs/sources.md#mdd
// writes them ("Boundary Detection Logic", "Token Management"). The design calls helpers it
// never defines (`hasNearbyErrors`, `detectsTopicChange`, `calculateRepetition`); ours are
// stated where they are defined, in our words. A "message" is one context entry (Claude Code
// writes each content block of a response as its own line).

/** What the scores read of one message: the design's `type`, its content kinds, its text. */
export interface BoundaryMessage {
  type: 'user' | 'assistant' | 'system';
  /** `content[0].type === 'tool_result'`. */
  firstIsToolResult: boolean;
  hasToolResult: boolean;
  hasToolUse: boolean;
  /** A tool_result with `is_error`, or an API error the agent wrote. */
  hasError: boolean;
  /** The first tool_result's `tool_use_id`. */
  toolResultId?: string;
  /** Text blocks joined (previews of long ones): `extractText`. */
  text: string;
  /** Text a person typed: a user message of text only, not injected by the agent. */
  isUserText: boolean;
  timestampMs?: number;
}

/** The design's message view of an entry. */
export function toBoundaryMessage(entry: Entry): BoundaryMessage {
  const role = entry.role ?? (entry.kind === 'user' || entry.kind === 'assistant' ? entry.kind : undefined);
  const type = role ?? 'system';
  let hasToolResult = false;
  let hasToolUse = false;
  let hasError = entry.isApiError;
  let toolResultId: string | undefined;
  const texts: string[] = [];
  for (const b of entry.blocks) {
    if (b.kind === 'tool-result') {
      hasToolResult = true;
      toolResultId ??= b.toolUseId;
      if (b.isError) hasError = true;
    } else if (b.kind === 'tool-use') hasToolUse = true;
    else if (b.kind === 'text') texts.push(b.text);
  }
  return {
    type,
    firstIsToolResult: entry.blocks[0]?.kind === 'tool-result',
    hasToolResult,
    hasToolUse,
    hasError,
    toolResultId,
    text: texts.join('\n'),
    isUserText:
      type === 'user' &&
      !entry.isMeta &&
      !entry.isCompactSummary &&
      texts.length > 0 &&
      entry.blocks.every((b) => b.kind === 'text' || b.kind === 'image'),
    timestampMs: entry.timestampMs,
  };
}

interface ScoreKnobs {
  baseScore: number;
  scoreAfterToolResult: number;
  scoreAfterAssistant: number;
  scoreInToolSequence: number;
  scoreConversationBreak: number;
  scoreNearError: number;
  scoreTopicChange: number;
  breakGapMinutes: number;
  breakPhrases: string[];
  errorRadiusMessages: number;
  topicOverlapPercent: number;
}

type At = (i: number) => BoundaryMessage | undefined;

/** "Tool Sequence Detection": a tool_use and its result, or a result the next tool call names. */
export function isInToolSequence(at: At, index: number, length: number): boolean {
  if (index === 0 || index >= length) return false;
  const prev = at(index - 1);
  const next = at(index);
  if (!prev || !next) return false;
  if (prev.type === 'assistant' && prev.hasToolUse && next.type === 'user' && next.hasToolResult) return true;
  if (prev.hasToolResult && next.type === 'assistant' && next.hasToolUse && prev.toolResultId !== undefined)
    return next.text.includes(prev.toolResultId);
  return false;
}

/** "Natural Break Detection": user → user, a gap over the knob's minutes, or a break phrase. */
export function isConversationBreak(at: At, index: number, length: number, knobs: ScoreKnobs): boolean {
  if (index === 0 || index >= length) return false;
  const prev = at(index - 1);
  const next = at(index);
  if (!prev || !next) return false;
  if (prev.type === 'user' && next.type === 'user') return true;
  if (prev.timestampMs !== undefined && next.timestampMs !== undefined) {
    if (next.timestampMs - prev.timestampMs > knobs.breakGapMinutes * 60_000) return true;
  }
  const text = next.text.toLowerCase();
  return knobs.breakPhrases.some((p) => p !== '' && text.includes(p.toLowerCase()));
}

/**
 * `hasNearbyErrors`, undefined in the design. Ours: an error (a tool_result with `is_error`, or
 * an API error) within `errorRadiusMessages` messages on either side of the split.
 */
export function hasNearbyErrors(at: At, index: number, length: number, knobs: ScoreKnobs): boolean {
  const from = Math.max(0, index - knobs.errorRadiusMessages);
  const to = Math.min(length, index + knobs.errorRadiusMessages);
  for (let i = from; i < to; i++) if (at(i)?.hasError) return true;
  return false;
}

const WORD = /[\p{L}\p{N}]{4,}/gu;
const words = (text: string) => new Set((text.toLowerCase().match(WORD) ?? []) as string[]);

/**
 * `detectsTopicChange`, undefined in the design. Ours: the message after the split is text a
 * person typed, and fewer than `topicOverlapPercent` % of its words (4+ letters) were in the
 * previous typed message. The first typed message has nothing to change from.
 */
export function detectsTopicChange(at: At, index: number, length: number, knobs: ScoreKnobs): boolean {
  if (index === 0 || index >= length) return false;
  const next = at(index);
  if (!next?.isUserText) return false;
  let prev: BoundaryMessage | undefined;
  for (let i = index - 1; i >= 0 && !prev; i--) if (at(i)?.isUserText) prev = at(i);
  if (!prev) return false;
  const a = words(next.text);
  if (a.size === 0) return false;
  const b = words(prev.text);
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return (shared / a.size) * 100 < knobs.topicOverlapPercent;
}

/** "Boundary Scoring Algorithm": the score of a split before message `index`, term by term. */
export function scoreBoundary(
  at: At,
  index: number,
  length: number,
  knobs: ScoreKnobs,
): { score: number; factors: { id: string; points: number }[] } {
  const factors: { id: string; points: number }[] = [{ id: 'base', points: knobs.baseScore }];
  const prev = at(index - 1);
  if (prev?.type === 'user' && prev.firstIsToolResult)
    factors.push({ id: 'after-tool-result', points: knobs.scoreAfterToolResult });
  if (prev?.type === 'assistant') factors.push({ id: 'after-assistant', points: knobs.scoreAfterAssistant });
  if (isInToolSequence(at, index, length))
    factors.push({ id: 'in-tool-sequence', points: knobs.scoreInToolSequence });
  if (isConversationBreak(at, index, length, knobs))
    factors.push({ id: 'conversation-break', points: knobs.scoreConversationBreak });
  if (hasNearbyErrors(at, index, length, knobs))
    factors.push({ id: 'near-error', points: knobs.scoreNearError });
  if (detectsTopicChange(at, index, length, knobs))
    factors.push({ id: 'topic-change', points: knobs.scoreTopicChange });
  let score = 0;
  for (const f of factors) score += f.points;
  return { score, factors };
}

export interface SearchKnobs extends ScoreKnobs {
  targetRatioPercent: number;
  minMessages: number;
  searchRadiusMessages: number;
  tailMessages: number;
}

/**
 * "Intelligent Boundary Finding": scores every split in [max(min, target − r), min(n − tail,
 * target + r)] around `target = floor(n × ratio)`; the first best wins (strict `>`). Empty when
 * the search range is empty. Ours: a split `isSafe` rejects (a tool_use parted from its result, which
 * the API refuses: "Never split tool use from its result") is scored and shown, never chosen.
 */
export function findCompactionBoundary(
  at: At,
  length: number,
  knobs: SearchKnobs,
  entryIndexAt: (i: number) => number,
  isSafe: (i: number) => boolean = () => true,
): { best?: BoundaryCandidate; candidates: BoundaryCandidate[] } {
  const target = Math.floor((length * knobs.targetRatioPercent) / 100);
  const start = Math.max(knobs.minMessages, target - knobs.searchRadiusMessages);
  const end = Math.min(length - knobs.tailMessages, target + knobs.searchRadiusMessages);
  const candidates: BoundaryCandidate[] = [];
  let best: BoundaryCandidate | undefined;
  let bestScore = -1;
  for (let i = start; i <= end; i++) {
    const { score, factors } = scoreBoundary(at, i, length, knobs);
    const c: BoundaryCandidate = {
      entryIndex: entryIndexAt(i),
      messageIndex: i,
      score,
      factors,
      chosen: false,
    };
    candidates.push(c);
    if (!isSafe(i)) {
      c.unsafe = true;
      continue;
    }
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  if (best) best.chosen = true;
  return { best, candidates };
}

// "Token Management › Token Estimation" and "Block Token Estimation".

/** Role tokens (3) and message-structure tokens (4) per message. */
const MESSAGE_OVERHEAD_TOKENS: TokenCount = 3 + 4;
/** Fixed cost of an image "for vision models". */
const IMAGE_TOKENS: TokenCount = 765;
/** A PDF block: 1,000 tokens per 50,000 base64 characters (a page, rounded up). */
const DOCUMENT_TOKENS_PER_PAGE: TokenCount = 1_000;
const DOCUMENT_CHARS_PER_PAGE = 50_000;

/**
 * `calculateRepetition`, undefined in the design. Ours: the share of non-empty lines that repeat
 * an earlier line of the same text (0 to 1).
 */
function calculateRepetition(text: string): number {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return 0;
  const seen = new Set<string>();
  let repeated = 0;
  for (const l of lines) {
    if (seen.has(l)) repeated++;
    else seen.add(l);
  }
  return repeated / lines.length;
}

/**
 * `estimateStringTokens`: ceil(chars / 4), +50 per code block (``` pair), −10 per URL, minus 10 %
 * of the base × the repetition share. `chars` is the full length; the adjustments read `text`
 * (a preview of long texts). Never below 0 (ours: the design does not clamp).
 */
export function estimateStringTokens(text: string, chars = text.length): TokenCount {
  const base = Math.ceil(chars / 4);
  const code = ((text.match(/```/g) ?? []).length / 2) * 50;
  const urls = (text.match(/https?:\/\/[^\s]+/g) ?? []).length * -10;
  const repetition = -Math.floor(base * calculateRepetition(text) * 0.1);
  return Math.max(0, base + code + urls + repetition);
}

/** `estimateBlockTokens`. */
function estimateOwnBlockTokens(block: Block): TokenCount {
  switch (block.kind) {
    case 'text':
    case 'thinking':
      return estimateStringTokens(block.text, block.chars);
    case 'tool-use':
      return 10 + estimateStringTokens(block.inputPreview, block.inputChars);
    case 'tool-result':
      return 5 + estimateStringTokens(block.text, block.chars);
    case 'image':
      return IMAGE_TOKENS;
    case 'document':
      return Math.ceil(block.base64Chars / DOCUMENT_CHARS_PER_PAGE) * DOCUMENT_TOKENS_PER_PAGE;
    case 'other':
      return 10;
  }
}

/** `estimateMessagesTokenCount` of one message. */
export function estimateOwnMessageTokens(entry: Entry): TokenCount {
  let total = MESSAGE_OVERHEAD_TOKENS;
  for (const b of entry.blocks) total += estimateOwnBlockTokens(b);
  return total;
}
