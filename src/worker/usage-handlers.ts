// The library's usage charts: the listed sessions' buckets (computed by the scan with each row)
// grouped by local day and by project with the code of `compactlab stats --by`.

import { groupUsage } from '../engine/stats/usage';
import { unpackUsage } from '../engine/stats/usage-pack';
import type { EngineHandlers } from './engine-host';

export const USAGE_HANDLERS: Pick<EngineHandlers, 'library-usage'> = {
  'library-usage': async ({ usage, timeZone }) => {
    const t0 = performance.now();
    const sessions = unpackUsage(usage);
    const byDay = groupUsage(sessions, 'day', timeZone);
    const byProject = groupUsage(sessions, 'project', timeZone);
    return { result: { byDay, byProject, computeMs: performance.now() - t0 } };
  },
};
