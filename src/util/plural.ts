/**
 * A count and its noun, singular for exactly one: `plural(1, 'file')` is "1 file", `plural(0, 'file')`
 * "0 files", `plural(4, 'try', 'tries')` "4 tries". The one way the CLI's and the library's own
 * words count things, so none says "1 files".
 */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
