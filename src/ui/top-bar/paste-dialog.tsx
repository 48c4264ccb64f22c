import { useEffect, useId, useRef, useState } from 'react';
import { useEscapeLayer } from '../common/use-escape';

/** A modal text box for pasting JSONL; <dialog> traps focus, the Escape stack closes it. */
export function PasteDialog({ onClose, onLoad }: { onClose: () => void; onLoad: (text: string) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  // Named by its heading, the box by its hint: unnamed, a screen reader announced a bare "dialog" and
  // read the box's name from its placeholder, a line of JSON.
  const titleId = useId();
  const hintId = useId();
  useEscapeLayer(onClose);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="paste-dialog"
      data-testid="paste-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        // Escape goes through the stack (use-escape.ts), so a layer under the dialog stays open.
        e.preventDefault();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() !== '') onLoad(text);
        }}
      >
        <h2 id={titleId}>Paste a transcript</h2>
        <p className="muted" id={hintId}>
          One JSON record per line, as in ~/.claude/projects/&lt;project&gt;/&lt;session&gt;.jsonl, or
          Messages API traffic: one request, or a JSON list of requests and responses
        </p>
        <textarea
          data-testid="paste-text"
          aria-label="Transcript text"
          aria-describedby={hintId}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          spellCheck={false}
          placeholder='{"type":"user","message":{"role":"user","content":"…"},…}'
        />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="btn primary"
            data-testid="paste-load"
            disabled={text.trim() === ''}
          >
            Load
          </button>
        </div>
      </form>
    </dialog>
  );
}
