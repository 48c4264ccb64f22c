// Preloaded into a measured child (`node --import ./bench/report-rss.mjs …`): at exit, writes the
// process's peak resident set size to the file named by REPORT_RSS_FILE. Portable: no GNU time.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.REPORT_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS * 1024));
});
