import { closeSync, constants, lstatSync, openSync, readFileSync } from 'node:fs';

/**
 * Reads the file at `path` unless `path` itself is a symbolic link: then it fails with code
 * `ELOOP` (see {@link isLinkRefusal}) and nothing is read. The check and the read are one step
 * (`O_NOFOLLOW`), so a link cannot be put in the file's place between them. Folders on the way
 * are followed: callers that must not follow those check them themselves. As cheap as
 * `readFileSync(path)`, which opens the file the same way.
 */
export function readFileNoFollow(path: string): Buffer {
  if (constants.O_NOFOLLOW === undefined) {
    // Windows has no O_NOFOLLOW (and making links there takes a privilege): look, then read.
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true) throw linkRefusal(path);
    return readFileSync(path);
  }
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Whether `error` is {@link readFileNoFollow}'s refusal of a symbolic link (FreeBSD says `EMLINK`). */
export function isLinkRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ELOOP' || code === 'EMLINK';
}

function linkRefusal(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ELOOP: a symbolic link, not followed, open '${path}'`), { code: 'ELOOP', path });
}
