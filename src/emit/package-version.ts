/**
 * The version of a generated package, which carries the drift of the listing in its semver core:
 * a pull that changes the listing bumps it by its worst change.
 */
import { ConfigError } from '../model/errors.js';
import { msg } from '../model/message.js';

/** `x.y.z`: three whole numbers without leading zeros (no pre-release or build part). */
export const PACKAGE_VERSION = /^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)$/;

/**
 * The version of a package that has none recorded yet. 1.0.0, not 0.x: below 1.0.0 semver has no
 * room for the three kinds of change (a breaking change only bumps the minor version, and an added
 * type is indistinguishable from a description edit), and a consumer's `^1.0.0` range takes new
 * types and fixes while it stops at the next breaking change.
 */
export const INITIAL_PACKAGE_VERSION = '1.0.0';

/** How much a version goes up. */
export type VersionBump = 'major' | 'minor' | 'patch';

/** Whether `version` is a valid package version (`x.y.z`). */
export function isPackageVersion(version: string): boolean {
  return PACKAGE_VERSION.test(version);
}

/**
 * The bump a set of changes calls for: any breaking change → major, any dangerous change or added
 * message type → minor, anything else → patch.
 */
export function bumpFor(changes: readonly { kind: string; severity: string }[]): VersionBump {
  if (changes.some((change) => change.severity === 'breaking')) return 'major';
  if (changes.some((change) => change.severity === 'dangerous' || change.kind === 'added')) return 'minor';
  return 'patch';
}

/**
 * `version` bumped: major resets minor and patch, minor resets patch. While the major version is 0
 * (semver's initial development), everything moves one place down: major → minor, the rest → patch.
 */
export function bumpVersion(version: string, bump: VersionBump): string {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  const level = major === 0 ? (bump === 'major' ? 'minor' : 'patch') : bump;
  if (level === 'major') return `${major + 1}.0.0`;
  if (level === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * Checks a package version given as an option (`--package-version`, config `packageVersion`).
 *
 * @throws ConfigError saying what is wrong and what to pass.
 */
export function assertPackageVersion(version: string): void {
  if (isPackageVersion(version)) return;
  throw new ConfigError(msg`The package version ${JSON.stringify(version)} is not a version x.y.z.`, {
    hint: msg`Pass three whole numbers without leading zeros, e.g. --package-version 2.0.0.`,
  });
}
