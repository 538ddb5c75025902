/** Compares strings by UTF-16 code units: deterministic everywhere, unlike `localeCompare`. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
