import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type MdBlock, type MdInline, parseMarkdown, stripControls } from '../../engine/export/markdown-lite';
import type { ConversationTurn } from '../../engine/query/conversation';
import { getEngineClient } from '../../worker/engine-client';
import type { SessionId } from '../../worker/protocol';
import { formatClock, formatCount } from '../common/format';
import { VisibleText } from '../common/visible-text';
import { sessionKey } from '../queries';
import { useUiStore } from '../store';
import './conversation.css';

// The conversation view (loaded on demand): the transcript read as a chat, Markdown drawn as React
// elements from markdown-lite's plain-string tree (transcript text is never HTML: no raw HTML,
// links only to http/https/mailto and opened only when clicked, images as their alt text, control
// sequences removed), each tool call folded with its result under it. Texts are the parser's
// previews; an entry's button opens the whole entry in the side panel.

const PAGE_TURNS = 150;

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

function Markdown({ text }: { text: string }) {
  const blocks: MdBlock[] = parseMarkdown(text);
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

function Turn({ turn }: { turn: ConversationTurn }) {
  const selectEntry = useUiStore((s) => s.selectEntry);
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
          onClick={() => selectEntry(turn.entryIndex, true)}
          title="Show this entry in the side panel and the row list"
        >
          entry {formatCount(turn.entryIndex + 1)}
        </button>
      </header>
      {turn.texts.map((t, i) => {
        const cut = more(t.chars, t.text.length);
        const body = (
          <>
            <Markdown text={t.text} />
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
              <b className="conv-tool-name">{stripControls(tool.name)}</b>{' '}
              <span className="mono">
                <VisibleText text={stripControls(tool.summary)} />
              </span>{' '}
              <span className={`conv-status conv-${status.replace(' ', '-')}`}>{status}</span>
            </summary>
            <pre className="conv-input">
              <VisibleText text={stripControls(tool.input)} />
            </pre>
            {tool.result !== undefined && (
              <pre className={`conv-result ${tool.isError ? 'error' : ''}`} data-testid="conv-result">
                <VisibleText text={stripControls(tool.result)} />
              </pre>
            )}
            {cut && <p className="muted small">{cut}</p>}
          </details>
        );
      })}
    </article>
  );
}

export function ConversationView({ sessionId }: { sessionId: SessionId }) {
  const query = useInfiniteQuery({
    queryKey: [...sessionKey(sessionId), 'conversation'],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      getEngineClient().request(
        { kind: 'conversation-page', sessionId, start: pageParam, count: PAGE_TURNS },
        { signal },
      ),
    getNextPageParam: (last, pages) => {
      const shown = pages.reduce((n, p) => n + p.turns.length, 0);
      return shown < last.total ? shown : undefined;
    },
  });
  if (query.error) return <div className="panel-message error">{query.error.message}</div>;
  const pages = query.data?.pages ?? [];
  const total = pages[0]?.total;
  const turns = pages.flatMap((p) => p.turns);
  return (
    <div className="conversation" data-testid="conversation" role="feed" aria-label="Conversation">
      {total === undefined && <p className="muted small">Reading the conversation…</p>}
      {total === 0 && <p className="muted small">No messages in this transcript.</p>}
      {turns.map((turn) => (
        <Turn key={turn.entryIndex} turn={turn} />
      ))}
      {query.hasNextPage && (
        <button
          type="button"
          className="btn conv-more"
          data-testid="conv-more"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          Show {formatCount(Math.min(PAGE_TURNS, (total ?? 0) - turns.length))} more of{' '}
          {formatCount((total ?? 0) - turns.length)} messages
        </button>
      )}
    </div>
  );
}
