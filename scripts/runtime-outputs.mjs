// The records runtime's JavaScript and declarations from its TypeScript source (see build-runtime.mjs).
import { transform } from 'esbuild';
import ts from 'typescript';

/** `{ 'records-runtime.js': text, 'records-runtime.d.ts': text }` of the runtime's source text. */
export async function runtimeOutputs(source) {
  const js = await transform(source, { loader: 'ts', format: 'esm', target: 'es2022', legalComments: 'none' });
  const dts = ts.transpileDeclaration(source, { fileName: 'records-runtime.ts', compilerOptions: { isolatedDeclarations: true, declaration: true, removeComments: false } });
  if (dts.diagnostics?.length) throw new Error(ts.formatDiagnostics(dts.diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => '', getNewLine: () => '\n' }));
  return { 'records-runtime.js': js.code, 'records-runtime.d.ts': dts.outputText.replace(/\r\n/g, '\n') };
}
