import { runInProcess } from '../cli/fake-io.js';
import type { RetryTimers } from '../../src/fetch/index.js';
import type { CliRun } from './cli.js';

/**
 * Runs the CLI in this process (`runCli` of src/cli/main.ts with captured streams): the same
 * argv parsing, option resolution (config, environment), library, report, error text and exit
 * code as the built CLI, without starting a process (which costs more CPU than most runs do).
 * For tests of what the CLI does. Tests of the process itself (signals, start-up and the bundle,
 * another user, runs in parallel, the environment a child gets) use `runBin`. `env` is the whole
 * environment the CLI sees, without colour, and with the test run's cache folder unless it names one.
 * `timers`: the waits between a request's tries (test/helpers/instant-timers.ts), real time unless given.
 */
export function runCli(args: string[], options: { cwd: string; env?: Record<string, string | undefined>; input?: string; timers?: RetryTimers }): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return runInProcess(args, { cwd: options.cwd, env, stdin: options.input ?? '', timers: options.timers });
}
