import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseManifest, serializeManifest, type Manifest } from '../../src/write/manifest.js';

const entry = fc.record({ input: fc.string(), sha: fc.string() });
const path = fc.oneof(fc.constantFrom('index.ts', 'types.ts', 'messages/A.ts', 'messages/a"b.ts', 'messages/a\\b.ts', 'x y.ts', '../evil.ts', 'a//b.ts'), fc.string({ minLength: 1 }));

describe('reading the manifest', () => {
  it('gives back what was written, for any paths and values ', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(path, entry), { maxLength: 20 }), (pairs) => {
        const written: Manifest = new Map(pairs);
        const read = parseManifest(serializeManifest(written), 'out');
        const safe = [...written].filter(([p]) => !p.includes('\\') && !p.includes('\0') && !p.startsWith('/') && !p.split('/').some((s) => s === '' || s === '.' || s === '..' || /^[a-zA-Z]:$/.test(s)));
        const byPath = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
        expect([...read].sort(byPath)).toEqual([...new Map(safe)].sort(byPath));
      }),
    );
  });

  it('reads a manifest formatted by hand, and refuses a damaged one', () => {
    const pretty = JSON.stringify({ generator: 'schema-sync', files: { 'index.ts': ['a', 'b'] } }, null, 4);
    expect([...parseManifest(pretty, 'out')]).toEqual([['index.ts', { input: 'a', sha: 'b' }]]);
    const cut = '{\n  "generator": "schema-sync",\n  "files": {\n    "index.ts": ["a", "b"\n  }\n}\n';
    expect(() => parseManifest(cut, 'out')).toThrow(/damaged/);
  });
});
