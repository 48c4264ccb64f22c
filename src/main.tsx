import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/app';
import { queryClient } from './ui/query-client';
import { RUNS_QUERY_KEY } from './ui/summaries/summaries-queries';
import { subscribeToRunsChanged } from './ui/summaries/runs-sync';
import './ui/styles.css';

// A run made or deleted in another tab shows here without a reload.
subscribeToRunsChanged(() => queryClient.invalidateQueries({ queryKey: RUNS_QUERY_KEY }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
