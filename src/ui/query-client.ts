import { QueryClient } from '@tanstack/react-query';

// The page's one query cache. Code outside React that delivers results as they stream in (a
// folder's scan: library/open-folder.ts) writes to it; components read it through queryOptions.

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { refetchOnWindowFocus: false, retry: false, staleTime: Number.POSITIVE_INFINITY },
  },
});
