// The command-line baseline of bench/big-memory.ts: read a file as a stream, split it at newlines
// and JSON.parse every line, keeping nothing (what any reader of the file must at least do).
import { createReadStream } from 'node:fs';

let rest = '';
let lines = 0;
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 1 << 20 })) {
  const parts = (rest + chunk).split('\n');
  rest = parts.pop() ?? '';
  for (const line of parts)
    if (line) {
      JSON.parse(line);
      lines++;
    }
}
if (rest) {
  JSON.parse(rest);
  lines++;
}
process.stdout.write(`${lines}\n`);
