import type { ReactNode } from 'react';
import type { MdBlock, MdInline } from '../../engine/export/markdown-lite';
import type { ConversationTurn } from '../../engine/query/conversation';
import type { DrawnTurn } from '../../worker/protocol';
import { formatClock, formatCount } from '../common/format';
import { VisibleText } from '../common/visible-text';

// The conversation view (loaded on demand): the transcript read as a chat, Markdown drawn as React
// elements from markdown-lite's plain-string tree (read in the worker) (transcript text is never HTML: no raw HTML,
// links only to http/https/mailto and opened only when clicked, images as their alt text, control
// sequences removed), each tool call folded with its result under it. Texts are the parser's
// previews; an entry's button opens the whole entry in the side panel.

function Inline({ nodes }: { nodes: readonly MdInline[] }) {
  return (
    <>
      {nodes.map((n, i) => {
        const key = i;
        switch (n.t) {
          case 'text':
            return <VisibleText key={key} text={n.s} />;
          case 'code':
            return (
              <code key={key}>
                <VisibleText text={n.s} />
              </code>
            );
          case 'strong':
            return (
              <strong key={key}>
                <VisibleText text={n.s} />
              </strong>
            );
          case 'em':
            return (
              <em key={key}>
                <VisibleText text={n.s} />
              </em>
            );
          case 'image':
            return (
              <span key={key} className="muted">
                [image: <VisibleText text={n.alt} />]
              </span>
            );
          case 'link':
            return n.href ? (
              <a key={key} href={n.href} target="_blank" rel="noopener noreferrer nofollow" title={n.href}>
                <VisibleText text={n.s} />
              </a>
            ) : (
              <VisibleText key={key} text={n.s} />
            );
        }
        return null;
      })}
    </>
  );
}

function Markdown({ blocks }: { blocks: readonly MdBlock[] }) {
  return (
    <div className="md">
      {blocks.map((b, i): ReactNode => {
        const key = i;
        switch (b.t) {
          case 'p':
            return (
              <p key={key}>
                <Inline nodes={b.inl} />
              </p>
            );
          case 'h':
            return (
              <p key={key} className={`md-h md-h${b.level}`}>
                <Inline nodes={b.inl} />
              </p>
            );
          case 'code':
            return (
              <pre key={key}>
                <VisibleText text={b.s} />
              </pre>
            );
          case 'list': {
            const items = b.items.map((item, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place.
              <li key={k}>
                <Inline nodes={item} />
              </li>
            ));
            return b.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
          }
          case 'quote':
            return (
              <blockquote key={key}>
                <Inline nodes={b.inl} />
              </blockquote>
            );
          case 'hr':
            return <hr key={key} />;
        }
        return null;
      })}
    </div>
  );
}

const ROLE_LABELS: Record<ConversationTurn['role'], string> = {
  user: 'User',
  assistant: 'Assistant',
  summary: 'Compaction summary',
};

function more(chars: number | undefined, shown: number): string | undefined {
  return chars !== undefined && chars > shown
    ? `${formatCount(chars - shown)} more characters: open the entry for all of it`
    : undefined;
}

function Turn({ turn, onOpen }: { turn: DrawnTurn; onOpen: (entryIndex: number) => void }) {
  return (
    <article
      className={`conv-turn conv-${turn.role}`}
      style={{ marginLeft: Math.min(turn.depth, 4) * 20 }}
      data-testid="conv-turn"
      data-role={turn.role}
      data-entry={turn.entryIndex}
    >
      <header className="conv-head small">
        <b>{ROLE_LABELS[turn.role]}</b>
        {turn.depth > 0 && <span className="muted">subagent</span>}
        <span className="muted mono">{formatClock(turn.timestampMs)}</span>
        <button
          type="button"
          className="btn link small"
          onClick={() => onOpen(turn.entryIndex)}
          title="Show this entry in the side panel and the row list"
        >
          entry {formatCount(turn.entryIndex + 1)}
        </button>
      </header>
      {turn.texts.map((t, i) => {
        const cut = more(t.chars, t.text.length);
        const body = (
          <>
            <Markdown blocks={t.blocks} />
            {cut && <p className="muted small">{cut}</p>}
          </>
        );
        return t.thinking ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a turn's texts have no identity but their place.
          <details key={i} className="conv-thinking">
            <summary className="muted small">Thinking</summary>
            {body}
          </details>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <div key={i}>{body}</div>
        );
      })}
      {turn.images > 0 && <p className="muted small">[{turn.images} image(s)]</p>}
      {turn.tools.map((tool) => {
        const status = tool.result === undefined ? 'no result' : tool.isError ? 'error' : 'ok';
        const cut = tool.result !== undefined ? more(tool.resultChars, tool.result.length) : undefined;
        return (
          <details key={tool.id} className="conv-tool" data-testid="conv-tool">
            <summary className="small">
              <b className="conv-tool-name">
                <VisibleText text={tool.name} />
              </b>{' '}
              <span className="mono">
                <VisibleText text={tool.summary} />
              </span>{' '}
              <span className={`conv-status conv-${status.replace(' ', '-')}`}>{status}</span>
            </summary>
            {tool.input && (
              <pre className="conv-input">
                <VisibleText text={tool.input} />
              </pre>
            )}
            {tool.result !== undefined && (
              <pre className={`conv-result ${tool.isError ? 'error' : ''}`} data-testid="conv-result">
                <VisibleText text={tool.result} />
              </pre>
            )}
            {cut && <p className="muted small">{cut}</p>}
          </details>
        );
      })}
    </article>
  );
}

/** The turns fetched so far (conversation-data.tsx fetches them), drawn. */
export function ConversationTurns(props: {
  turns: readonly DrawnTurn[];
  onOpen: (entryIndex: number) => void;
}) {
  return (
    <>
      {props.turns.map((turn) => (
        <Turn key={turn.entryIndex} turn={turn} onOpen={props.onOpen} />
      ))}
    </>
  );
}
