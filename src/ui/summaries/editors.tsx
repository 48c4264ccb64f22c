import { DiffEditor, Editor } from '@monaco-editor/react';
import { useEffect, useRef, useState } from 'react';
import { useColorScheme } from '../common/use-color-scheme';
import { diffFailures, type monaco } from './monaco-setup';

// The Monaco editors of the Summaries view, in their own lazily loaded chunk.

const COMMON = {
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12,
  wordWrap: 'on' as const,
  automaticLayout: true,
  renderLineHighlight: 'none' as const,
  // Tab moves focus on, as in any text field of the page, instead of typing a tab into the prompt
  // (Monaco's default keeps a keyboard user in the editor with no way out but Ctrl+M).
  tabFocusMode: true,
  // The built-in summary counts with "×" ("Read ×3"): Monaco boxed every one as a character that
  // looks like an ASCII "x". Other look-alikes (a Cyrillic letter in a path) and invisible
  // characters stay marked: the text is a transcript's, untrusted.
  unicodeHighlight: { allowedCharacters: { '×': true as const } },
};

export interface PromptEditorProps {
  value: string;
  onChange: (value: string) => void;
}

/** Monaco's built-in theme for the page's scheme. */
function useMonacoTheme(): string {
  return useColorScheme() === 'light' ? 'vs' : 'vs-dark';
}

/** The summarization prompt, editable. */
export function PromptEditor({ value, onChange }: PromptEditorProps) {
  const theme = useMonacoTheme();
  return (
    <div className="monaco-box" data-testid="prompt-editor">
      <Editor
        value={value}
        language="markdown"
        theme={theme}
        onChange={(next) => onChange(next ?? '')}
        options={{ ...COMMON, lineNumbers: 'on' }}
        loading={<div className="muted pad">Loading editor…</div>}
      />
    </div>
  );
}

/** Read-only text (the exact request as JSON). */
export function ReadOnlyViewer({
  value,
  language,
  testId,
}: {
  value: string;
  language: string;
  testId: string;
}) {
  const theme = useMonacoTheme();
  return (
    <div className="monaco-box" data-testid={testId}>
      <Editor
        value={value}
        language={language}
        theme={theme}
        options={{ ...COMMON, readOnly: true, lineNumbers: 'off', folding: true }}
        loading={<div className="muted pad">Loading editor…</div>}
      />
    </div>
  );
}

export interface TextDiffProps {
  original: string;
  modified: string;
  inline: boolean;
  onlyChanges: boolean;
  onChanges?: (changes: number) => void;
}

/** Two texts side by side or inline, optionally folding the unchanged regions away. */
export function TextDiff({ original, modified, inline, onlyChanges, onChanges }: TextDiffProps) {
  const theme = useMonacoTheme();
  const [changes, setChanges] = useState<number | undefined>();
  const [failed, setFailed] = useState(false);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor>(null);
  useEffect(() => {
    if (changes !== undefined) onChanges?.(changes);
  }, [changes, onChanges]);
  useEffect(() => {
    const onFailure = () => setFailed(true);
    diffFailures.addEventListener('failure', onFailure);
    return () => diffFailures.removeEventListener('failure', onFailure);
  }, []);
  // @monaco-editor/react disposes the text models before the diff editor, which Monaco reports
  // as an error ("TextModel got disposed before DiffEditorWidget model got reset"). Keep the
  // models past the wrapper's cleanup and dispose them once the editor is gone.
  useEffect(
    () => () => {
      const models = editorRef.current?.getModel();
      setTimeout(() => {
        models?.original.dispose();
        models?.modified.dispose();
      }, 0);
    },
    [],
  );
  return (
    <div className="monaco-box" data-testid="run-diff-editor" data-changes={changes ?? ''}>
      {failed && (
        <p className="error small" role="alert" data-testid="run-diff-failed">
          The editor could not compare these two texts (its worker gave no result). Untick a run and tick it
          again to retry.
        </p>
      )}
      <DiffEditor
        original={original}
        modified={modified}
        language="markdown"
        theme={theme}
        options={{
          ...COMMON,
          readOnly: true,
          originalEditable: false,
          renderSideBySide: !inline,
          useInlineViewWhenSpaceIsLimited: false,
          hideUnchangedRegions: { enabled: onlyChanges },
          diffWordWrap: 'on',
        }}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor) => {
          editorRef.current = editor;
          editor.onDidUpdateDiff(() => {
            setFailed(false);
            setChanges(editor.getLineChanges()?.length ?? 0);
          });
        }}
        loading={<div className="muted pad">Loading diff…</div>}
      />
    </div>
  );
}
