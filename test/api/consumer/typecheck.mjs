// `tsc --noEmit --strict` (module nodenext) for consumer.ts, as a consumer project runs it, but
// checking only the consumer and schema-sync's own .d.ts files: third-party declarations (zod,
// undici, @types/node, lib.dom) are what `skipLibCheck` would skip, and checking them costs
// tens of seconds without proving anything about schema-sync.
// Usage (in the consumer folder): node typecheck.mjs <path of typescript>
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve, sep } from 'node:path';

const ts = createRequire(import.meta.url)(process.argv[2]);
const config = ts.getParsedCommandLineOfConfigFile(resolve('tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const ownDist = realpathSync(resolve('node_modules/schema-sync/dist')) + sep;
const roots = new Set(config.fileNames.map((f) => realpathSync(f)));
const mine = program.getSourceFiles().filter((f) => roots.has(realpathSync(f.fileName)) || realpathSync(f.fileName).startsWith(ownDist));
const diagnostics = [
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...mine.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
process.stdout.write(JSON.stringify({ checked: mine.map((f) => f.fileName), errors: diagnostics.length > 0 ? ts.formatDiagnostics(diagnostics, host) : '' }));
