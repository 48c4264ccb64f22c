import type { SessionId, SessionOverview } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { useScrollStrip } from '../common/use-scroll-strip';
import { EntryDetailPane } from '../detail/entry-detail-pane';
import { type SidePanel as Panel, useUiStore } from '../store';
import { CompactionCard } from '../timeline/compaction-card';
import { BashSummariesPanel } from './bash-summaries-panel';
import { ErosionPanel } from './erosion-panel';
import { IssuesPanel } from './issues-panel';
import { SecretsPanel } from './secrets-panel';
import { TokensPanel } from './tokens-panel';
import { formatOrdinalTitle } from '../../engine/query/numbering';
import { StripArrow } from '../common/strip-arrow';

export function SidePanel({ sessionId, overview }: { sessionId: SessionId; overview: SessionOverview }) {
  const panel = useUiStore((s) => s.panel);
  const setPanel = useUiStore((s) => s.setPanel);
  const openCompaction = useUiStore((s) => s.openCompaction);
  const closeCompaction = useUiStore((s) => s.openCompactionCard);
  const issues = overview.issueCounts.error + overview.issueCounts.warning + overview.issueCounts.info;
  const tabs: { id: Panel; label: string }[] = [
    { id: 'detail', label: 'Entry' },
    { id: 'tokens', label: 'Tokens' },
    { id: 'issues', label: `Issues ${formatCount(issues)}` },
    { id: 'bash', label: 'Bash outputs' },
    { id: 'secrets', label: 'Secrets' },
    ...(overview.compactions.length > 0 || overview.apiCalls > 0
      ? [{ id: 'erosion' as const, label: 'Erosion' }]
      : []),
  ];
  const activeKey = openCompaction !== undefined ? `compaction-${openCompaction}` : panel;
  // Its tabs overflow a narrow panel (issue 24 item 3): ‹ › say more lie that way, the active one in
  // view. Tab reaches every tab (a focused one scrolls into view), so the ‹ › are for the pointer:
  // a Tab stop on them lost the focus to <body> once a press scrolled the strip to its end and the
  // arrow went away.
  const strip = useScrollStrip(activeKey);
  return (
    <section className="side-panel">
      <div className="tabs-strip" data-testid="side-tabs" data-overflow={strip.overflow}>
        {strip.before && (
          <StripArrow
            side="before"
            label="Earlier tabs"
            testId="side-tabs-before"
            onScroll={strip.scrollBy}
          />
        )}
        <div className="tabs" role="tablist" ref={strip.ref}>
          {tabs.map((tab) => (
            <button
              type="button"
              key={tab.id}
              role="tab"
              aria-selected={openCompaction === undefined && panel === tab.id}
              className={`${openCompaction === undefined && panel === tab.id ? 'on' : ''} ${tab.id === 'issues' && overview.issueCounts.error > 0 ? 'has-errors' : ''}`}
              data-testid={`tab-${tab.id}`}
              data-strip-key={tab.id}
              onClick={() => {
                closeCompaction(undefined);
                setPanel(tab.id);
              }}
            >
              {tab.label}
            </button>
          ))}
          {openCompaction !== undefined && (
            <button
              type="button"
              role="tab"
              aria-selected
              className="on compaction-tab"
              data-testid="tab-compaction"
              data-strip-key={`compaction-${openCompaction}`}
            >
              {formatOrdinalTitle('compaction', openCompaction)}
            </button>
          )}
        </div>
        {strip.after && (
          <StripArrow side="after" label="Later tabs" testId="side-tabs-after" onScroll={strip.scrollBy} />
        )}
      </div>
      <div className="side-body">
        {openCompaction !== undefined ? (
          <CompactionCard sessionId={sessionId} compactionIndex={openCompaction} />
        ) : (
          <>
            {panel === 'detail' && <EntryDetailPane sessionId={sessionId} />}
            {panel === 'tokens' && <TokensPanel sessionId={sessionId} />}
            {panel === 'issues' && <IssuesPanel sessionId={sessionId} />}
            {panel === 'bash' && <BashSummariesPanel sessionId={sessionId} />}
            {panel === 'secrets' && <SecretsPanel sessionId={sessionId} />}
            {panel === 'erosion' && <ErosionPanel sessionId={sessionId} hasCalls={overview.apiCalls > 0} />}
          </>
        )}
      </div>
    </section>
  );
}
