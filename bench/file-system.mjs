// The file system under a folder, which the bench names with each table of figures.
import { readFileSync, realpathSync, statfsSync } from 'node:fs';

/**
 * The file system type of `path`: on Linux the type of the mount point that holds it (the
 * longest one in /proc/self/mounts that is a prefix), elsewhere statfs's type number.
 */
export function fsTypeOf(path) {
  const real = realpathSync(path);
  try {
    let best = { point: '', type: undefined };
    for (const line of readFileSync('/proc/self/mounts', 'utf8').split('\n')) {
      const [, escaped, type] = line.split(' ');
      if (type === undefined) continue;
      const point = escaped.replace(/\\040/g, ' ');
      const holds = point === '/' || real === point || real.startsWith(`${point}/`);
      if (holds && point.length >= best.point.length) best = { point, type };
    }
    if (best.type !== undefined) return best.type;
  } catch {
    // No /proc (macOS, Windows).
  }
  return `statfs type 0x${statfsSync(real).type.toString(16)}`;
}

/** Whether a file system type keeps its files in RAM. */
export const isRam = (fsType) => fsType === 'tmpfs' || fsType === 'ramfs';
