import type { TokenCount } from '../../types';
import type { VersionProfile } from '../version-profile';

// Cline's releases whose context management differs (issue 19). Classic Cline (the VS Code
// extension's own ContextManager, cline/cline src/core/context/context-management/) truncates;
// from v3.25.0 it can condense through `summarize_task` instead (`useAutoCondense`, off by default,
// next-gen models only), whose prompt gained sections at v3.28.0 and v3.34.0 and whose trigger was
// 75% of the window from v3.31.0 to v3.65.x. From v4.0.0 the extension runs on the Cline SDK
// (sdk/packages/core/src/extensions/context/): no ContextManager, compaction only with auto-condense
// on (off in 4.0.x: deterministic "basic" trimming); from v4.1.0 auto-condense is on by default
// and "agentic" (a summary of all but the ~20k newest tokens) at 90% of the usable input.
// Cline's logs state no version: a task is placed by its start date (the release's tag date, UTC).

export type ClineProfileId =
  | 'classic'
  | 'classic-v3.25'
  | 'classic-v3.28'
  | 'classic-v3.31'
  | 'classic-v3.34'
  | 'classic-v3.66'
  | 'sdk-v4.0'
  | 'sdk-v4.1'
  | 'sdk-v4.1.8';

export interface ClineProfile extends VersionProfile<ClineProfileId> {
  engine: 'classic' | 'sdk';
  /** Classic: whether `useAutoCondense` exists; its trigger (% of the window; 100: maxAllowedSize alone). */
  condense?: { percent: number };
  /** The summarize_task (or SDK summary) preset this release sends. */
  presetId: string;
  /** SDK: its compaction. */
  sdk?: {
    /** 'reserve': min(max input − 16,384, 90% of it) (4.0.x); 'usable': 90% of the usable input (4.1+). */
    trigger: 'reserve' | 'usable';
    strategy: 'basic' | 'agentic';
    /** `useAutoCondense` default. */
    autoDefault: boolean;
    /** DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS. */
    summaryMaxTokens: TokenCount;
  };
}

const REPO = 'cline/cline';
const V3_25 = `${REPO}@612a67ee8998e6aa48db5110ee4236543bcf7c1b`;
const V3_28 = `${REPO}@7734f04e2a08ca1b41054ef711cbe2da00f42d5e`;
const V3_31 = `${REPO}@3e0c39acbb467feaebd9227d01380f28c591cfa0`;
const V3_34 = `${REPO}@e3f4ce618f7bd44e7270921e6fbbcd4a1ce10af9`;
const V3_66 = `${REPO}@7fa0a4924b579fa7329e514b01cefab9f2ad20af`;
export const CLINE_V4_0 = `${REPO}@1e88a708bde949cf92808c1638d8fb869dc55e05`;
export const CLINE_V4_1 = `${REPO}@69e3149f5fddd6eb8d339218bbeb24b7ff2fc300`;
export const CLINE_V4_1_8 = `${REPO}@7e31fb9e0d5f38f3437d6f12a01711a0142fccca`;
const SDK_CTX = 'sdk/packages/core/src/extensions/context';

export const CLINE_PROFILES: readonly ClineProfile[] = [
  {
    id: 'classic',
    label: 'before 3.25: truncation only (no summarize_task)',
    from: {},
    source: `${V3_25}:src/core/prompts/contextManagement.ts:1 (summarizeTask first appears at v3.25.0, commit e0478493a2)`,
    engine: 'classic',
    presetId: 'cline-summarize-task-v3.25',
  },
  {
    id: 'classic-v3.25',
    label: '3.25: truncation; auto-condense option at maxAllowedSize, 7-section summarize_task',
    from: { version: '3.25.0', date: '2025-08-15' },
    source: `${V3_25}:src/core/task/index.ts:2162-2166 (shouldCompactContextWindow without a threshold: maxAllowedSize)`,
    engine: 'classic',
    condense: { percent: 100 },
    presetId: 'cline-summarize-task-v3.25',
  },
  {
    id: 'classic-v3.28',
    label: '3.28: summarize_task with 8 sections (Task Evolution)',
    from: { version: '3.28.0', date: '2025-09-11' },
    source: `${V3_28}:src/core/prompts/contextManagement.ts:26`,
    engine: 'classic',
    condense: { percent: 100 },
    presetId: 'cline-summarize-task-v3.28',
  },
  {
    id: 'classic-v3.31',
    label: '3.31: auto-condense at 75% of the window',
    from: { version: '3.31.0', date: '2025-09-25' },
    source: `${V3_31}:src/core/storage/utils/state-helpers.ts:561 (autoCondenseThreshold || 0.75)`,
    engine: 'classic',
    condense: { percent: 75 },
    presetId: 'cline-summarize-task-v3.28',
  },
  {
    id: 'classic-v3.34',
    label: '3.34: summarize_task with 9 sections (Required Files)',
    from: { version: '3.34.0', date: '2025-10-23' },
    source: `${V3_34}:src/core/prompts/contextManagement.ts:42`,
    engine: 'classic',
    condense: { percent: 75 },
    presetId: 'cline-summarize-task',
  },
  {
    id: 'classic-v3.66',
    label: '3.66: the 75% threshold removed, auto-condense at maxAllowedSize',
    from: { version: '3.66.0', date: '2026-02-19' },
    source: `${V3_66}:src/core/context/context-management/ContextManager.ts:164-167 (no threshold passed: maxAllowedSize; cline#9396)`,
    engine: 'classic',
    condense: { percent: 100 },
    presetId: 'cline-summarize-task',
  },
  {
    id: 'sdk-v4.0',
    label: '4.0: Cline SDK; no ContextManager, compaction only with auto-condense (off): basic trim',
    from: { version: '4.0.0', date: '2026-06-26' },
    source: `${CLINE_V4_0}:apps/vscode/src/sdk/cline-session-factory.ts:696-703 (compaction only with useAutoCondense, strategy "basic"); ${CLINE_V4_0}:${SDK_CTX}/compaction.ts:160-174 (trigger)`,
    engine: 'sdk',
    presetId: 'cline-sdk-summary',
    sdk: { trigger: 'reserve', strategy: 'basic', autoDefault: false, summaryMaxTokens: 1_024 },
  },
  {
    id: 'sdk-v4.1',
    label: '4.1: auto-compact on by default, agentic summary at 90% of usable input, ≤ 1,024 tokens',
    from: { version: '4.1.0', date: '2026-07-31' },
    source: `${CLINE_V4_1}:apps/vscode/src/shared/storage/state-keys.ts:277 (useAutoCondense default true); ${CLINE_V4_1}:${SDK_CTX}/compaction.ts:307-312 (trigger)`,
    engine: 'sdk',
    presetId: 'cline-sdk-summary',
    sdk: { trigger: 'usable', strategy: 'agentic', autoDefault: true, summaryMaxTokens: 1_024 },
  },
  {
    id: 'sdk-v4.1.8',
    label: '4.1.8: the summary capped at 4,096 tokens',
    from: { version: '4.1.8', date: '2026-08-11' },
    source: `${CLINE_V4_1_8}:${SDK_CTX}/compaction-shared.ts:20 (DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS 4_096)`,
    engine: 'sdk',
    presetId: 'cline-sdk-summary',
    sdk: { trigger: 'usable', strategy: 'agentic', autoDefault: true, summaryMaxTokens: 4_096 },
  },
];
