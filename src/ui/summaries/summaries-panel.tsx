import { useShallow } from 'zustand/react/shallow';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { PromptSettings } from '../../engine/summarize/prepare';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import type { SessionId } from '../../worker/protocol';
import { saveExactTokensOfMatchingRuns } from './runs-db';
import { RunsSection } from './runs-table';
import { preparedSummaryQuery, RUNS_QUERY_KEY, summariesInfoQuery } from './summaries-queries';
import { useSummariesStore } from './summaries-store';
import { useRedaction } from '../export/redaction-store';
import {
  describePoint,
  type ExactCount,
  getRealCompaction,
  modelFor,
  PREVIEW_DEBOUNCE_MS,
  resolvePoint,
  useDebounced,
} from './workbench-helpers';
import { SetupColumn } from './setup-column';
import { PromptColumn } from './prompt-column';
import { OutputColumn } from './output-column';

// The Summaries view: pick a compaction point and a prompt, see the exact request, run a
// summarizer, keep every run, compare them. The workbench's columns are a file each:
// setup-column.tsx, prompt-column.tsx, output-column.tsx.

export function SummariesPanel({ sessionId }: { sessionId: SessionId }) {
  const info = useQuery(summariesInfoQuery(sessionId));
  if (info.error)
    return <div className="pad error-text">Could not read this transcript: {info.error.message}</div>;
  if (!info.data) return <div className="pad muted">Reading the transcript…</div>;
  if (info.data.apiCalls.length === 0) {
    return (
      <div className="pad muted">
        This transcript has no API calls of the main conversation: there is nothing to summarize.
      </div>
    );
  }
  return <Workbench sessionId={sessionId} info={info.data} />;
}

function Workbench({ sessionId, info }: { sessionId: SessionId; info: SummariesInfo }) {
  // Each session opens with its own agent's prompt (Codex's for a Codex rollout) until the person
  // picks one; edits to a preset's prompt are kept by preset (summaries-store.ts).
  useEffect(() => {
    const st = useSummariesStore.getState();
    if (!st.presetPicked && st.presetId !== info.agentPresetId) st.choosePreset(info.agentPresetId);
  }, [info.agentPresetId]);
  const s = useSummariesStore(
    useShallow((st) => ({
      anthropicModel: st.anthropicModel,
      customInstructions: st.customInstructions,
      keepFromApiCallIndex: st.keepFromApiCallIndex,
      maxOutputTokens: st.maxOutputTokens,
      openaiModel: st.openaiModel,
      point: st.point,
      presetId: st.presetId,
      prompt: st.prompt,
      summarizer: st.summarizer,
      systemPrompt: st.systemPrompt,
      temperature: st.temperature,
    })),
  );
  const point = resolvePoint(info, s.point)!;
  const model = modelFor(s.summarizer, s.anthropicModel, s.openaiModel);
  // Secrets are masked in the request the preview shows and the summarizer gets (Secrets tab).
  const redact = useRedaction(sessionId);
  const settings: PromptSettings = useMemo(
    () => ({
      presetId: s.presetId,
      prompt: s.prompt,
      customInstructions: s.customInstructions,
      systemPrompt: s.systemPrompt,
      model,
      maxOutputTokens: s.maxOutputTokens,
      ...(s.temperature === undefined ? {} : { temperature: s.temperature }),
      ...(s.keepFromApiCallIndex === undefined ? {} : { keepFromApiCallIndex: s.keepFromApiCallIndex }),
      redact,
    }),
    [
      s.presetId,
      s.prompt,
      s.customInstructions,
      s.systemPrompt,
      model,
      s.maxOutputTokens,
      s.temperature,
      s.keepFromApiCallIndex,
      redact,
    ],
  );
  const previewSettings = useDebounced(settings, PREVIEW_DEBOUNCE_MS);
  const prepared = useQuery({
    ...preparedSummaryQuery(sessionId, point, previewSettings),
    placeholderData: keepPreviousData,
  });
  const pointLabel = describePoint(info, point);
  const queryClient = useQueryClient();
  const [exact, setExact] = useState<ExactCount>();
  const request = prepared.data?.request;
  const current = previewSettings === settings && exact?.request === request ? exact : undefined;
  const onExact = (count: ExactCount) => {
    setExact(count);
    if (count.tokens === undefined) return;
    // The request is a function of the transcript, the point and the settings: runs made from the
    // same ones sent this very request, so the count is theirs too.
    void saveExactTokensOfMatchingRuns(info.contentHash, point, previewSettings, count.tokens).then(() =>
      queryClient.invalidateQueries({ queryKey: RUNS_QUERY_KEY }),
    );
  };

  return (
    <div className="summaries-workbench">
      <SetupColumn info={info} point={point} recentStartCalls={prepared.data?.recentStartCalls} />
      <PromptColumn
        prepared={prepared.data}
        preparing={prepared.isFetching}
        error={prepared.error?.message}
        stale={previewSettings !== settings}
        exact={exact}
        onExact={onExact}
        logPreTokens={
          point.kind === 'compaction' ? getRealCompaction(info, point.compactionIndex)?.preTokens : undefined
        }
      />
      <OutputColumn
        sessionId={sessionId}
        info={info}
        point={point}
        pointLabel={pointLabel}
        settings={settings}
        requestExactTokens={current?.tokens}
        recordedAvailable={
          point.kind === 'compaction' && getRealCompaction(info, point.compactionIndex)?.hasSummary === true
        }
      />
      <RunsSection contentHash={info.contentHash} />
    </div>
  );
}
