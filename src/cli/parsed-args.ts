import { camel } from '../util/case.js';

/**
 * A command line as yargs parsed it, read by flag name with the type each flag has: no cast
 * between argument shapes. A value of another type than asked for reads as undefined.
 */
export class ParsedArgs {
  constructor(private readonly values: Readonly<Record<string, unknown>>) {}

  /** The command typed (the first positional), or '' when there is none. */
  get command(): string {
    const positionals = this.values['_'];
    return Array.isArray(positionals) && positionals.length > 0 ? String(positionals[0]) : '';
  }

  /** The value of `--flag` (or of a positional) as yargs gave it. */
  value(flag: string): unknown {
    return this.values[camel(flag)];
  }

  string(flag: string): string | undefined {
    const value = this.value(flag);
    return typeof value === 'string' ? value : undefined;
  }

  number(flag: string): number | undefined {
    const value = this.value(flag);
    return typeof value === 'number' ? value : undefined;
  }

  boolean(flag: string): boolean | undefined {
    const value = this.value(flag);
    return typeof value === 'boolean' ? value : undefined;
  }

  /** The values of a flag that may be given more than once. */
  strings(flag: string): string[] {
    const value = this.value(flag);
    return (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
  }

  /** The value of a flag with `choices` (yargs refused any other). */
  choice<T extends string>(flag: string, choices: readonly T[]): T | undefined {
    const value = this.value(flag);
    return choices.find((choice) => choice === value);
  }
}
