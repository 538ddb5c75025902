/**
 * A message that quotes text from outside: the program's own wording (`template`) and the outside
 * values between its parts, kept apart so that the run's redactor masks the values alone. A key
 * that is an ordinary word (`types`, `error`) then never turns the wording into `*** changed`,
 * and masking it would show the key. Every error and warning schema-sync builds is one, written
 * with {@link msg}: what is interpolated is masked unless it is a number, a boolean or a message
 * of its own; the literal text never is.
 */
export interface Message {
  /** The program's own wording around the values: one more part than there are values. */
  readonly template: readonly string[];
  /** Text from outside (a server's, a path, a name, a library's message), masked where shown. */
  readonly values: readonly string[];
}

/**
 * What a message may quote: outside text (masked), or what the program computed itself, shown as
 * it is: a number or boolean (a count, an index, a status), or a {@link Message} (its template
 * as the program's own, its values still masked).
 */
export type MessageValue = string | number | boolean | Message;

/**
 * The tag every error and warning is written with:
 * ``msg`cannot read ${path}: ${error.message}` `` keeps `path` and the library's message as
 * values to mask, the rest as the program's own. Numbers, booleans and nested messages join the
 * template, so the values hold outside text alone.
 */
export function msg(strings: TemplateStringsArray, ...values: readonly MessageValue[]): Message {
  const template = [strings[0]!];
  const outside: string[] = [];
  values.forEach((value, i) => {
    const after = strings[i + 1]!;
    if (typeof value === 'string') {
      outside.push(value);
      template.push(after);
      return;
    }
    const inner = typeof value === 'object' ? value : { template: [String(value)], values: [] };
    template[template.length - 1] += inner.template[0]!;
    outside.push(...inner.values);
    template.push(...inner.template.slice(1));
    template[template.length - 1] += after;
  });
  return { template, values: outside };
}

/**
 * Text the program made itself, shown as it is though not written literally: a flag name from
 * the command table, a list of the program's choices, a file name it picks.
 */
export function own(text: string): Message {
  return { template: [text], values: [] };
}

/** Messages joined with `separator` (the program's own), e.g. the lines of a list of problems. */
export function joinMessages(messages: readonly Message[], separator: string): Message {
  // One pass: a listing with thousands of invalid elements makes a message of thousands of lines.
  const template = [''];
  const values: string[] = [];
  messages.forEach((message, i) => {
    template[template.length - 1] += (i === 0 ? '' : separator) + message.template[0]!;
    template.push(...message.template.slice(1));
    values.push(...message.values);
  });
  return { template, values };
}

/** The message with each value passed through `mask` (the run's redactor), the template as it is. */
export function messageText(message: Message, mask: (text: string) => string = (text) => text): string {
  return message.template.reduce((text, part, i) => (i === 0 ? part : text + mask(message.values[i - 1]!) + part), '');
}

/** Whether `value` (e.g. read back from a cache file) is a {@link Message}. */
export function isMessage(value: unknown): value is Message {
  if (value === null || typeof value !== 'object') return false;
  const { template, values } = value as Partial<Message>;
  return (
    Array.isArray(template) && Array.isArray(values) && template.length === values.length + 1 && [...template, ...values].every((part) => typeof part === 'string')
  );
}
