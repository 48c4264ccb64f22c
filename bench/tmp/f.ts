import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
const s = await parseSession(process.argv.slice(2).map((p) => createNodeFileSource(p)));
console.log(s.files.map((f) => [f.index, f.name.slice(-30), f.role, f.dialect, f.sessionId, f.foldedCopies]));
console.log(s.entries.slice(0, 3).map((e) => [e.fileIndex, e.kind]));
