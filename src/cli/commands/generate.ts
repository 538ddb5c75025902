import { generate } from '../../run/generate.js';
import { plural } from '../../util/plural.js';
import { EXIT } from '../exit-codes.js';
import type { SettingsContext } from './context.js';
import { seconds } from './report-output.js';

/** `schema-sync generate`: one line of what it wrote. Exit 0. */
export async function generateCommand({ log, library }: SettingsContext): Promise<number> {
  const started = Date.now();
  const result = await generate(library);
  const { written, deleted } = result.write;
  log.info(`${plural(result.messageCount, 'type')} · ${plural(written.length, 'file')} written, ${deleted.length} deleted in ${seconds(Date.now() - started)}`);
  return EXIT.ok;
}
