import type { ExportedSummary } from '../../engine/export/summary-export';
import type { SummaryRun } from '../summaries/runs-db';

// Summary runs as the engine's exports take them.

/** A stored run as an exported summary (the run's own name, point, model, text and score). */
export function toExportedSummary(run: SummaryRun): ExportedSummary {
  return {
    source: 'run',
    label: run.name,
    pointLabel: run.point.label,
    model: run.summarizer.model,
    presetId: run.settings.presetId,
    createdAtMs: run.createdAt,
    text: run.summary,
    retention: run.retention,
  };
}
