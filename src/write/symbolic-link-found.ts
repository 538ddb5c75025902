import { join } from 'node:path';
import { WriteError } from '../model/errors.js';
import { msg, own } from '../model/message.js';

/**
 * Symbolic links where the output folder should hold a file schema-sync generates, its manifest,
 * or a folder of them: schema-sync never makes one, so a checkout or a hostile repository put
 * them there. They are never read or followed (one may point anywhere, e.g. at ~/.ssh), and a
 * run that would write or delete there refuses, so the user sees where they point and decides.
 */
export class SymbolicLinkFound extends WriteError {
  constructor(
    /** The links, relative to the output folder: a file itself or a folder on the way to one. */
    readonly links: readonly string[],
    outDir: string,
  ) {
    const onDisk = links.map((link) => join(outDir, link));
    const one = onDisk.length === 1;
    const shown = onDisk.length <= 3 ? onDisk.join(', ') : `${onDisk.slice(0, 3).join(', ')} and ${onDisk.length - 3} more`;
    super(msg`${shown} ${own(one ? 'is a symbolic link' : 'are symbolic links')}; schema-sync never writes or deletes through one. ${own(one ? 'It was' : 'They were')} not read either, and nothing was changed.`, {
      hint: one ? msg`Remove the link (rm ${onDisk[0]!}) and run again: schema-sync writes its own files in its place.` : msg`Remove the links (rm each one named) and run again: schema-sync writes its own files in their place.`,
    });
  }
}
