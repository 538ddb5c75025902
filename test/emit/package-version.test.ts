/** The version bump of a package: which change bumps what, and how a version moves. */
import { describe, expect, it } from 'vitest';
import { assertPackageVersion, bumpFor, bumpVersion, isPackageVersion, type VersionBump } from '../../src/emit/package-version.js';

const added = { kind: 'added', severity: 'safe' };
const safeChange = { kind: 'changed', severity: 'safe' };
const dangerous = { kind: 'changed', severity: 'dangerous' };
const breaking = { kind: 'removed', severity: 'breaking' };

describe('bumpFor: the worst change decides', () => {
  it.each([
    [[safeChange], 'patch'],
    [[added], 'minor'],
    [[safeChange, added], 'minor'],
    [[dangerous], 'minor'],
    [[dangerous, added, safeChange], 'minor'],
    [[breaking], 'major'],
    [[added, dangerous, breaking, safeChange], 'major'],
    [[{ kind: 'renamed', severity: 'breaking' }], 'major'],
    [[{ kind: 'changed', severity: 'breaking' }], 'major'],
  ] as const)('%j → %s', (changes, bump) => {
    expect(bumpFor(changes)).toBe(bump);
  });
});

describe('bumpVersion', () => {
  it.each<[string, VersionBump, string]>([
    ['1.0.0', 'major', '2.0.0'],
    ['1.0.0', 'minor', '1.1.0'],
    ['1.0.0', 'patch', '1.0.1'],
    ['1.4.7', 'major', '2.0.0'],
    ['1.4.7', 'minor', '1.5.0'],
    ['1.4.7', 'patch', '1.4.8'],
    ['9.99.99', 'minor', '9.100.0'],
    // While the major version is 0, everything moves one place down.
    ['0.3.2', 'major', '0.4.0'],
    ['0.3.2', 'minor', '0.3.3'],
    ['0.3.2', 'patch', '0.3.3'],
    ['0.0.0', 'major', '0.1.0'],
  ])('%s by %s → %s', (version, bump, next) => {
    expect(bumpVersion(version, bump)).toBe(next);
  });
});

describe('package versions', () => {
  it.each(['1.0.0', '0.0.0', '10.20.30'])('accepts %s', (version) => {
    expect(isPackageVersion(version)).toBe(true);
  });
  it.each(['1.0', '1', 'v1.0.0', '01.0.0', '1.0.0-beta.1', '1.0.0+build', ' 1.0.0', '1.0.0\n', ''])('refuses %j', (version) => {
    expect(isPackageVersion(version)).toBe(false);
    expect(() => assertPackageVersion(version)).toThrow('is not a version x.y.z');
  });
});
