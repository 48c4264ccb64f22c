import { getInferredWindowKnobs } from '../../parse/context-window';
import {
  computeThresholds,
  DEFAULT_THRESHOLD_KNOBS,
  describeUncheckedVersion,
  getContextWindowForModel,
  getOutputReservation,
  getThresholdProfileForVersion,
} from '../../thresholds';
import type { SessionInfo } from '../types';
import {
  CLAUDE_CODE_KNOB_SPECS,
  type ClaudeCodeKnobs,
  DEFAULT_CLAUDE_CODE_KNOBS,
  UNLIMITED_SKILL_TOKENS,
  UNLIMITED_SKILLS_TOTAL_TOKENS,
} from './knobs';

// The knobs of the Claude Code version that wrote a log (`CompactionStrategy.getSessionKnobs`):
// its threshold profile, window and max output, the sub-agent rules, microcompact and the pending
// estimate by version, auto-compact off where the log shows it was; each choice with its note.

/**
 * A profile as the page's Profile select shows it, with the value `--profile` takes: "2.1.21+
 * (v2.1.68)". The note said "v2.1.68 for Claude Code 2.1.101" beside a select reading "2.1.21+".
 */
function describeProfile(profile: string): string {
  const spec = CLAUDE_CODE_KNOB_SPECS.find((k) => k.key === 'profile');
  const short = spec?.kind === 'select' ? spec.options?.find((o) => o.value === profile)?.short : undefined;
  return short ? `${short} (${profile})` : profile;
}

/** Orders version strings numerically ("2.1.101" after "2.1.92"). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** `Session.meta.agent` of a Claude Code log (its dialect's agent name). */
const CLAUDE_CODE_AGENT = 'Claude Code';

/** Microcompact boundaries appear in the corpus only in 2.1.9–2.1.19 (docs/sources.md#fmt-microcompact-boundary). */
const MICROCOMPACT_FIRST_SEEN = '2.1.9';
const MICROCOMPACT_LAST_SEEN = '2.1.19';
/** The first release whose `cli.js` holds the rapid-refill breaker (docs/sources.md#cc-refill-breaker: 2.1.89 has it, 2.1.88 not). */
const RAPID_REFILL_BREAKER_FIRST = '2.1.89';
/** The first release whose trigger adds the estimate of the messages after the last usage (`@anthropic-ai/claude-code@2.1.2:cli.js (D81: return JPA(G)+H70(A.slice(Q+1)))`; 2.1.1 counts the usage alone). */
const PENDING_ESTIMATE_FROM = '2.1.2';
/** The first release whose compaction re-attaches no todo list (`@anthropic-ai/claude-code@2.1.63:cli.js`; 2.1.62 still has `context:"post-compact"`). */
const NO_TODO_RESTORE_FROM = '2.1.63';
/** The first release cutting re-attached skills to 5,000 tokens each, 25,000 in all (`@anthropic-ai/claude-code@2.1.84:cli.js`; 2.1.83 attaches them whole). */
const SKILL_LIMITS_FROM = '2.1.84';
/** The version the gist read (docs/sources.md#cc-v2168): microcompact at the warning threshold on its own. */
const MICROCOMPACT_AT_WARNING_FROM = '2.1.68';

/** The knobs of the log's own Claude Code version, with the reasons for each choice. */
export function getClaudeCodeSessionKnobs(info: SessionInfo): { knobs: ClaudeCodeKnobs; notes: string[] } {
  const notes: string[] = [];
  // Another agent's log names that agent's versions (Codex 0.77.0 is no Claude Code version).
  const ownVersions = info.agent === undefined || info.agent === CLAUDE_CODE_AGENT;
  if (!ownVersions && info.versions.length > 0)
    notes.push(
      `The log is ${info.agent}'s: its version ${info.versions.join(', ')} is not a Claude Code version, so no Claude Code version is assumed.`,
    );
  // Raw API traffic may be Claude Code's own (claude-trace records its requests): no such note there.
  if (!ownVersions && !info.format?.startsWith('anthropic-messages'))
    notes.push(`The log is not a Claude Code session, so its compactions are not expected to match.`);
  const versions = ownVersions ? [...info.versions].sort(compareVersions) : [];
  const version = versions.at(-1);
  const profile = getThresholdProfileForVersion(version);
  const profiles = new Set(versions.map(getThresholdProfileForVersion));
  if (profiles.size > 1)
    notes.push(`The log spans versions ${versions.join(', ')}; the profile of ${version} is used.`);
  const contextWindow = Math.max(
    DEFAULT_THRESHOLD_KNOBS.contextWindow,
    ...info.models.map(getContextWindowForModel),
  );
  const inferred =
    info.windowInference &&
    getInferredWindowKnobs(info.windowInference, getOutputReservation(profile, Infinity));
  const knobs: ClaudeCodeKnobs = {
    ...DEFAULT_CLAUDE_CODE_KNOBS,
    profile,
    contextWindow: inferred?.contextWindow ?? contextWindow,
    maxOutputTokens: inferred?.maxOutputTokens ?? DEFAULT_CLAUDE_CODE_KNOBS.maxOutputTokens,
  };
  const unchecked = describeUncheckedVersion(version);
  notes.push(
    `Threshold profile ${describeProfile(profile)} for Claude Code ${version ?? '(version unknown)'}.`,
    ...(unchecked ? [unchecked] : []),
    ...(inferred?.notes ?? []),
  );
  if (info.isSubagent) {
    knobs.agentRole = 'subagent';
    notes.push(
      'Sub-agent transcript: replayed under the sub-agent rules (Claude Code 2.1.68 (docs/sources.md#cc-five-mechanisms)): the same threshold on its own context and model, checked before its next turn; Prompt 3 (continuation summary) over its own history; no file, todo or plan re-attachment and no /compact (the reference gives those to the main session only).',
    );
  }
  // A log with no Claude Code version (another agent's, or one that states none) is replayed under
  // the newest rules, as its profile is: not 2.0.x's count and continuation.
  const is21 = version === undefined || compareVersions(version, '2.1.0') >= 0;
  const inMicrocompactRange =
    version !== undefined &&
    compareVersions(version, MICROCOMPACT_FIRST_SEEN) >= 0 &&
    compareVersions(version, MICROCOMPACT_LAST_SEEN) <= 0;
  knobs.microcompactEnabled = inMicrocompactRange || info.microcompactions > 0;
  if (profile === 'legacy') {
    knobs.microcompactClearImages = false;
    knobs.countPendingMessages = false;
    knobs.continuationFormat = 'legacy';
    notes.push(
      `Legacy profile: 1.0.x before 1.0.71 compacts at 92% of the window less the max output, on the last usage alone; microcompact ${knobs.microcompactEnabled ? 'on: the log has microcompact boundaries' : 'off: none in the log, and cli.js returns before clearing anything until 1.0.65'} (docs/sources.md#cc-npm-constants).`,
    );
  } else {
    notes.push(
      info.microcompactions > 0
        ? `Microcompact on: the log has ${info.microcompactions} microcompact boundar${info.microcompactions === 1 ? 'y' : 'ies'}.`
        : inMicrocompactRange
          ? `Microcompact on: ${version} is in the range where microcompact boundaries are seen (${MICROCOMPACT_FIRST_SEEN}–${MICROCOMPACT_LAST_SEEN}).`
          : `Microcompact off: no microcompact boundary appears in logs outside ${MICROCOMPACT_FIRST_SEEN}–${MICROCOMPACT_LAST_SEEN}, and their contexts never drop without a compaction.`,
    );
    if (!is21) {
      knobs.continuationFormat = 'legacy';
      notes.push(
        '2.0.x: the trigger counts the last usage alone (preTokens equal it), the continuation message is T91.',
      );
    }
    if (version !== undefined && compareVersions(version, PENDING_ESTIMATE_FROM) < 0) {
      knobs.countPendingMessages = false;
      if (is21)
        notes.push(
          `The trigger counts the last usage alone: Claude Code adds its estimate of the later messages from ${PENDING_ESTIMATE_FROM} (its cli.js).`,
        );
    }
  }
  pickRestoration(knobs, version, notes);
  if (version !== undefined && compareVersions(version, RAPID_REFILL_BREAKER_FIRST) < 0) {
    knobs.rapidRefillBreaker = false;
    notes.push(
      `No rapid-refill breaker: Claude Code has one from ${RAPID_REFILL_BREAKER_FIRST} (its cli.js; a 2.1.87 subagent compacts after four calls in a row).`,
    );
  }
  const autoCompact = computeThresholds(knobs).autoCompact;
  if (info.autoCompactions === 0 && info.continuedPeakTokens >= autoCompact) {
    knobs.autoCompactEnabled = false;
    notes.push(
      `Auto-compact off: the log went on past ${info.continuedPeakTokens.toLocaleString('en-US')} tokens (over the ${autoCompact.toLocaleString('en-US')} threshold) without compacting, and never auto-compacted.`,
    );
  }
  if (knobs.microcompactEnabled && knobs.microcompactVariant === 'v2.1.68')
    pickMicrocompactTrigger(knobs, info, version, notes);
  return { knobs, notes };
}

/**
 * When these versions clear: 2.1.x before 2.1.68 try microcompact when auto-compact is due and
 * compact after it on the same call (their logs show both boundaries after one call; never one
 * alone between the warning and the auto-compact threshold); 2.1.68 clears at the warning
 * threshold on its own (docs/sources.md#cc-microcompact). A log's own boundaries decide over its
 * version: a clearing after the same call as an auto-compaction, or one alone while auto-compact
 * was on.
 */
function pickMicrocompactTrigger(
  knobs: ClaudeCodeKnobs,
  info: SessionInfo,
  version: string | undefined,
  notes: string[],
): void {
  const withAuto = info.microcompactsWithAutoCompact ?? 0;
  const alone = info.microcompactsAlone ?? 0;
  const before2168 = version !== undefined && compareVersions(version, MICROCOMPACT_AT_WARNING_FROM) < 0;
  if (withAuto > 0) {
    knobs.microcompactTrigger = 'with-auto-compact';
    notes.push(
      `Microcompact when auto-compact is due, before it: the log cleared after the same call as ${withAuto === 1 ? 'an auto-compaction' : `${withAuto} auto-compactions`}.`,
    );
  } else if (alone > 0 && knobs.autoCompactEnabled) {
    knobs.microcompactTrigger = 'warning';
    notes.push(
      `Microcompact at the warning threshold, on its own: the log cleared ${alone === 1 ? 'once' : `${alone} times`} with no compaction after that call while auto-compact was on.`,
    );
  } else if (before2168) {
    knobs.microcompactTrigger = 'with-auto-compact';
    notes.push(
      knobs.autoCompactEnabled
        ? `Microcompact when auto-compact is due, before it (Claude Code before ${MICROCOMPACT_AT_WARNING_FROM}: their logs clear after the same call as an auto-compaction, never alone below it).`
        : 'Microcompact at the warning threshold: auto-compact is off.',
    );
  }
}

/**
 * What the log's release re-attaches after a compaction (docs/sources.md#cc-npm-constants): the
 * todo list up to 2.1.62, none from 2.1.63; invoked skills whole before 2.1.84, each cut to
 * 5,000 tokens within 25,000 from 2.1.84. Before 2.1.84 the knobs' maxima stand for "no limit".
 */
function pickRestoration(knobs: ClaudeCodeKnobs, version: string | undefined, notes: string[]): void {
  if (version === undefined) return;
  if (compareVersions(version, NO_TODO_RESTORE_FROM) >= 0) {
    knobs.restoreTodos = false;
    notes.push(
      `No todo list re-attached: Claude Code ${NO_TODO_RESTORE_FROM} and later re-attach files, plan, skills and tasks, not the todo list (their cli.js).`,
    );
  }
  if (compareVersions(version, SKILL_LIMITS_FROM) < 0) {
    knobs.restoreTokensPerSkill = UNLIMITED_SKILL_TOKENS;
    knobs.restoreSkillsTotalTokens = UNLIMITED_SKILLS_TOTAL_TOKENS;
    notes.push(
      `Invoked skills re-attached whole: the per-skill (5,000) and total (25,000) limits start in ${SKILL_LIMITS_FROM} (its cli.js).`,
    );
  }
}
