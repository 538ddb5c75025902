// Preloaded into a CLI child (node --import) by runBin's `measureRss`: at exit, writes the
// process's peak resident set size in KiB to the file SCHEMA_SYNC_TEST_RSS_FILE names.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env['SCHEMA_SYNC_TEST_RSS_FILE'];
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
