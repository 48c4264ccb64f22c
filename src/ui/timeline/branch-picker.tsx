import type { Branch, BranchFork } from '../../engine/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { markHiddenChars, VisibleText } from '../common/visible-text';
import { useUiStore } from '../store';
import { useBranchStore, useBranchPath } from './branch-store';

// Where the session forked (a rewind, an edited prompt, a resume from an earlier point), which
// branch went on, and a control to take another: the timeline re-queries its series for it.
// Previews are transcript text: rendered as text nodes only, hidden and control characters marked
// (an <option> holds text alone, so its label is marked as a string).

function branchLabel(b: Branch): string {
  const calls = `${formatCount(b.apiCalls)} call${b.apiCalls === 1 ? '' : 's'}`;
  const what = b.preview ? `“${markHiddenChars(b.preview)}”` : '(no prompt)';
  return b.isMainLine ? `main line · ${calls}` : `branch ${b.id}: ${what} · ${calls}`;
}

export function BranchPicker({
  sessionId,
  forks,
  branches,
}: {
  sessionId: SessionId;
  forks: BranchFork[];
  branches: Branch[];
}) {
  const branchPath = useBranchPath(sessionId);
  const setBranchPath = useBranchStore((s) => s.setBranchPath);
  const selectEntry = useUiStore((s) => s.selectEntry);
  return (
    <div className="branch-picker" data-testid="branch-picker">
      <label
        className="knob"
        title="The context series (and the replay) follow the history of this branch's calls"
      >
        <span>Follow</span>
        <select
          data-testid="branch-select"
          value={branchPath}
          onChange={(e) => setBranchPath(sessionId, Number(e.currentTarget.value))}
        >
          {branches.map((b) => (
            <option key={b.id} value={b.id}>
              {branchLabel(b)}
            </option>
          ))}
        </select>
      </label>
      {/* Folded by default: the list can take several lines the transcript needs (1280×720). */}
      <details className="fork-details">
        <summary className="branch-title">
          ⎇ {forks.length} fork{forks.length === 1 ? '' : 's'}: where, and which branch went on
        </summary>
        <ol className="fork-list">
          {forks.map((fork) => (
            <li key={fork.entryIndex} data-testid="fork">
              <button
                type="button"
                className="btn link"
                title="Show the entry the branches share"
                onClick={() => selectEntry(fork.entryIndex, true)}
              >
                after entry #{fork.entryIndex + 1}
              </button>{' '}
              {fork.branchIds.map((id, k) => {
                const preview = fork.childPreviews[k] || branches[id]!.preview;
                const went = id === fork.continuedBranchId;
                return (
                  <span
                    key={id}
                    className={`fork-branch ${went ? 'went-on' : 'abandoned'}`}
                    data-testid="fork-branch"
                    data-branch={id}
                    data-went-on={went}
                  >
                    {went ? 'went on: ' : 'abandoned: '}
                    {preview ? <VisibleText text={`“${preview}”`} /> : '(no prompt)'}{' '}
                    <span className="muted">
                      ({formatCount(fork.childApiCalls[k] ?? 0)} calls after the fork)
                    </span>
                  </span>
                );
              })}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
