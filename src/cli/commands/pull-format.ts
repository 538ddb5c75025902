import { existsSync } from 'node:fs';
import type { PullOptions } from '../../run/options.js';
import { resolvePaths } from '../../run/options.js';
import type { Logger } from '../logger.js';
import { chooseModuleFormat, formatChoiceText, readProjectModuleFacts } from './init-module-format.js';

/**
 * The options of a pull with the module format and target decided as `init` decides them, when
 * nothing records them: no lockfile yet, none given (flag, environment; the caller asks only
 * when no config file was found: a config records how the project was set up), and a project
 * to read them from (a package.json at or above the output folder's parent). A CommonJS project
 * set up without `init` would otherwise get ES modules that compile and fail at run time, and a
 * JavaScript project `.ts` files. The pull records them in the lockfile; the decision is said in
 * one line. A dry run decides nothing: it records nothing.
 */
export async function withDecidedFormat(library: PullOptions, log: Logger, cwd: string): Promise<PullOptions> {
  if (library.dryRun === true || library.moduleFormat !== undefined || library.target !== undefined) return library;
  const paths = resolvePaths(library);
  if (existsSync(paths.lockfilePath)) return library;
  const facts = await readProjectModuleFacts(paths.cwd, paths.outDir, cwd);
  if (facts.packageType === undefined) return library;
  const choice = chooseModuleFormat(facts);
  // A package's target is js+dts already.
  const target = library.package === undefined ? choice.target : undefined;
  if (choice.format === undefined && target === undefined) return library;
  log.info(`${formatChoiceText({ ...choice, target })}: ${choice.reason}; recorded in the lockfile (no lockfile or config said).`);
  if (choice.caution !== undefined) log.warn(choice.caution);
  return { ...library, ...(choice.format === undefined ? {} : { moduleFormat: choice.format }), ...(target === undefined ? {} : { target }) };
}
