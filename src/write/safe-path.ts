/** An empty, `.` or `..` segment, or a drive letter (`C:`), anywhere in a posix path. */
const UNSAFE_SEGMENT = /(?:^|\/)(?:\.{0,2}|[a-zA-Z]:)(?:\/|$)/;

/**
 * A posix path that stays inside the folder: relative, no `..`, no empty or dot segments. The one
 * test of every path schema-sync reads, writes or deletes in the output folder (the plan's, the
 * manifest's, a journal's), in a module of its own that the others import.
 */
export function isSafeRelativePath(path: string): boolean {
  return path.length > 0 && !path.includes('\\') && !path.includes('\0') && !UNSAFE_SEGMENT.test(path);
}
