// The floor: a plain string-template writer that emits one small module per descriptor and an
// index, with no validation, no ts-morph, no comparison. What the machine can do at best.
// Usage: node bench/floor-writer.mjs <listing.json> <out dir>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [listingPath, out] = process.argv.slice(2);
const listing = JSON.parse(readFileSync(listingPath, 'utf8'));
mkdirSync(join(out, 'messages'), { recursive: true });
const names = [];
for (const { message: m } of listing) {
  const text = `// Generated\nexport const ${m.name} = { name: ${JSON.stringify(m.name)}, mNum: ${m.mNum}, schemaHash: ${JSON.stringify(m.schemaHash)}, actions: ${JSON.stringify([...m.actions])}, hasTKey: ${m.hasTKey === 'Yes'}, hasEKey: ${m.hasEKey === 'Yes'}, hasOKey: ${m.hasOKey === 'Yes'}, hasCF: ${m.hasCF === 'Yes'}, mToken: ${JSON.stringify(m.mToken)}, staticFilterFields: ${JSON.stringify(m.staticFilterFields.split(',').filter(Boolean))} } as const;\nexport type ${m.name} = typeof ${m.name};\n`;
  writeFileSync(join(out, 'messages', `${m.name}.ts`), text);
  names.push(m.name);
}
writeFileSync(join(out, 'index.ts'), names.map((n) => `export { ${n} } from './messages/${n}.js';`).join('\n') + '\n');
