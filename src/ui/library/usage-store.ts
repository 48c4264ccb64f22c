import { create } from 'zustand';
import type { LibrarySession } from './library-store';

// The library's usage charts' state: the zone days are counted in, what the bars measure, chart or
// table, and the day or project a click chose (it filters the list; library-view.tsx applies it).

interface UsageFilter {
  by: 'day' | 'project';
  /** The group's key (a date, a working directory). */
  key: string;
  label: string;
  /** The sessions with a call in it. */
  sessionKeys: ReadonlySet<string>;
}

interface UsageState {
  open: boolean;
  /** 'local': the browser's zone. */
  zone: 'local' | 'UTC';
  metric: 'cost' | 'tokens';
  view: 'chart' | 'table';
  filter?: UsageFilter;
  setOpen(open: boolean): void;
  set(part: Partial<Pick<UsageState, 'zone' | 'metric' | 'view'>>): void;
  /** Chooses a group, or clears the choice when it is the one chosen. */
  toggleFilter(filter: UsageFilter): void;
  clearFilter(): void;
}

export const useUsageStore = create<UsageState>()((set) => ({
  open: false,
  zone: 'local',
  metric: 'cost',
  view: 'chart',
  // Closing the charts drops their filter: nothing on screen would say the list is cut.
  setOpen: (open) => set(open ? { open } : { open, filter: undefined }),
  // Days counted in another zone are other days: a chosen day is dropped with the zone.
  set: (part) =>
    set((s) =>
      part.zone && part.zone !== s.zone && s.filter?.by === 'day' ? { ...part, filter: undefined } : part,
    ),
  toggleFilter: (filter) =>
    set((s) => ({
      filter: s.filter?.by === filter.by && s.filter.key === filter.key ? undefined : filter,
    })),
  clearFilter: () => set({ filter: undefined }),
}));

/** The sessions of the chosen day or project (all when none is chosen). */
export function filterByUsage(sessions: LibrarySession[], filter: UsageFilter | undefined): LibrarySession[] {
  return filter ? sessions.filter((s) => filter.sessionKeys.has(s.key)) : sessions;
}
