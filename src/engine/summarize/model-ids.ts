// The model names the two summarizers that call no model put on their runs: the page names a
// run's summarizer by them without loading the summarizers (issue 20: its startup JavaScript).

/** The built-in summarizer's (summarize/builtin.ts). */
export const BUILTIN_MODEL = 'builtin';

/** The recorded summary's (summarize/recorded.ts): the transcript's own compaction summary. */
export const RECORDED_MODEL = 'recorded';
