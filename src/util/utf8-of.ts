/**
 * The UTF-8 bytes of the text that `pieces` run together to, in one buffer of their size: no text
 * of the whole is made. Each piece holds whole characters (no surrogate pair cut in two).
 */
export function utf8Of(pieces: readonly string[]): Buffer {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, 'utf8');
  return bytes;
}
