import { renderReport, REPORT_LIMITS, type DriftReport } from '../diff/index.js';
import { LockfileText } from '../lock/index.js';
import type { GenerationSettings } from '../model/lockfile.js';
import { bumpFor, bumpVersion, INITIAL_PACKAGE_VERSION } from '../emit/package-version.js';

/** The package a pull leaves: its name and version, and the version it had when the pull bumped it. */
export interface PackageRelease {
  name: string;
  version: string;
  /** The version before this pull, when the pull changed it. */
  previousVersion?: string;
}

/**
 * The lockfile a pull writes, its package released: when the lockfile found already made a package and
 * the pull's report has changes, the version goes up by the worst of them (or becomes the version
 * given) and the changelog gains a section, the version and the report in markdown, so that
 * `generate` and `check` rebuild CHANGELOG.md from the lockfile alone. The report is the one the
 * pull prints: types out of scope do not count, severities are as config `rules` sets them, and
 * accepted changes count at theirs (accepted means reviewed, not harmless to consumers). A first
 * pull, a pull that makes a folder a package, and a pull without changes bump nothing.
 */
export function releasePackage(after: LockfileText, before: LockfileText | undefined, givenVersion: string | undefined, report: DriftReport): LockfileText {
  const settings = after.settings();
  const changes = [...report.changes, ...report.accepted];
  if (settings.package === undefined || before?.settings().package === undefined || changes.length === 0) return after;
  const version = givenVersion ?? bumpVersion(settings.packageVersion ?? INITIAL_PACKAGE_VERSION, bumpFor(changes));
  // The report as `pull --format markdown` prints it: no timestamps, only what the lockfile holds;
  // cut to a changelog section's length, as the lockfile and CHANGELOG.md keep every section.
  const notes = renderReport(report, { format: 'markdown', command: 'pull', maxLength: REPORT_LIMITS.changelog });
  const released: GenerationSettings = { ...settings, packageVersion: version, changelog: [{ version, notes }, ...(settings.changelog ?? [])] };
  return LockfileText.of({ ...after.parse(), settings: released }, after.path);
}

/** The package of the lockfile a pull writes, and the version it had before; undefined for a plain folder. */
export function packageSummary(before: LockfileText | undefined, after: LockfileText): PackageRelease | undefined {
  const { package: packageName, packageVersion = INITIAL_PACKAGE_VERSION } = after.settings();
  if (packageName === undefined) return undefined;
  const previous = before?.settings();
  const previousVersion = previous?.package === undefined ? undefined : (previous.packageVersion ?? INITIAL_PACKAGE_VERSION);
  return { name: packageName, version: packageVersion, ...(previousVersion === undefined || previousVersion === packageVersion ? {} : { previousVersion }) };
}
