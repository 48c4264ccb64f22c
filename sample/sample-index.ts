// public/samples/index.json: the files of the bundled sample, with paths relative to that folder,
// so the app can fetch all of them and hand them to the parser as one session.

import { utf8Length } from './accounting';
import type { GeneratedSession } from './generate-session';

type SampleFileRole = 'main' | 'subagent' | 'compaction-call';

export interface SampleIndex {
  /** Where the files come from; regenerate with `npm run sample`, never edit by hand. */
  generator: string;
  generatorVersion: number;
  sessionId: string;
  title: string;
  files: { path: string; role: SampleFileRole; bytes: number }[];
}

function getSampleFileRole(path: string): SampleFileRole {
  if (!path.includes('/subagents/')) return 'main';
  return path.includes('/agent-acompact-') ? 'compaction-call' : 'subagent';
}

export function createSampleIndex(session: GeneratedSession, generatorVersion: number): SampleIndex {
  return {
    generator: 'sample/generate-session.ts (npm run sample)',
    generatorVersion,
    sessionId: session.sessionId,
    title: 'Building tally, a TypeScript CLI for expense journals (generated sample session)',
    files: session.files.map((f) => ({
      path: f.name,
      role: getSampleFileRole(f.name),
      bytes: utf8Length(f.text),
    })),
  };
}
