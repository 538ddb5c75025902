import type { DiffOptions } from '../../run/diff.js';
import { lockfileSpecKind } from '../../run/lockfile-source.js';
import type { PullOptions } from '../../run/options.js';
import type { CliIo } from '../io.js';
import type { ParsedArgs } from '../parsed-args.js';

/**
 * The library options of `diff`: the shared ones (lockfile, rules, acceptances, scope) plus the
 * two sides. File paths on the command line resolve against the working directory, as every
 * path flag does; `-` and `<rev>:<path>` pass unchanged.
 */
export function diffOptions(args: ParsedArgs, library: PullOptions, io: CliIo): DiffOptions {
  const side = (spec: string | undefined) => {
    if (spec === undefined) return undefined;
    // yargs hands a lone `-` positional over as '' (it re-reads positionals as `--base -`).
    if (spec === '' || spec === '-') return '-';
    const found = lockfileSpecKind(spec, io.cwd);
    return found.kind === 'file' ? found.path : spec;
  };
  return { ...library, base: side(args.string('base')), head: side(args.string('head')), against: args.string('against'), stdin: io.stdin };
}
