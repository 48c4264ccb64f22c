import type { TokenCount } from '../types';

// Plain words of the shared model that strategies and the replay both speak.

export type CompactMechanism = 'full' | 'partial' | 'session-memory';

/** A line on the chart: a strategy's trigger or limit. */
export interface ThresholdLine {
  id: string;
  label: string;
  tokens: TokenCount;
  /** `trigger`: where the strategy acts; `warning`: UI only; `limit`: requests are refused. */
  kind: 'trigger' | 'warning' | 'limit';
}
