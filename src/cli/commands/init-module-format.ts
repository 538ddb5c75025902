/**
 * What `init` writes as `moduleFormat`: what the project's TypeScript build makes of the
 * generated files. Under `module: commonjs` tsc compiles every file to CommonJS. Under
 * `node16`/`nodenext` a file is what its extension or the nearest package.json's `"type"` says
 * (the output folder's own marker decides for its `.ts` files, but tsc does not copy it into an
 * `outDir`), and `verbatimModuleSyntax` refuses `import`/`export` in a CommonJS file (TS1295,
 * TS1287), so there only `.mts` files compile, and they run from anywhere. Under
 * `es2015`…`esnext`/`preserve` (bundlers) files stay ES modules. The choice is a pure function of
 * those facts; reading them (the tsconfig as tsc reads it, `extends` followed, through the
 * TypeScript of ts-morph, loaded only here) is apart.
 */
import { createRequire } from 'node:module';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { ModuleFormat } from '../../model/lockfile.js';

/**
 * The TypeScript compiler of ts-morph, loaded when `init` reads a tsconfig (no other command
 * loads it). Through `require`, not `import()`: ts-morph is CommonJS, and Node's ESM loader would
 * scan all of it for export names and bypass the CLI's code cache.
 */
function loadTypeScript(): typeof import('ts-morph').ts {
  return (createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph')).ts;
}

/** What decides the module format of the generated files in a project. */
export interface ProjectModuleFacts {
  /** The `"type"` of the package.json nearest the output folder (none: CommonJS, as Node reads it); undefined without one. */
  packageType: string | undefined;
  /** The project's tsconfig as tsc reads it, when there is one. */
  tsconfig?: {
    /** Path, as shown to the user. */
    shown: string;
    /** The module kind tsc emits, lower case: `commonjs`, `nodenext`, `esnext`, … */
    module: string;
    verbatimModuleSyntax: boolean;
  };
  /** Why the tsconfig could not be read, when it could not. */
  unreadable?: string;
}

/**
 * What `init` writes (and a `pull` that finds nothing recorded records) and says: the format
 * (none: leave the default, `esm`), the target when the project wants other than the default,
 * why, and a caution.
 */
export interface ModuleFormatChoice {
  format: ModuleFormat | undefined;
  /** `js+dts` for a JavaScript project (a package.json, no tsconfig): it compiles no `.ts` file. */
  target?: 'js+dts';
  reason: string;
  caution?: string;
}

/** The module kinds under which tsc takes a file's format from package.json. */
const NODE_MODULES = new Set(['node16', 'node18', 'node20', 'nodenext']);

/** The module kinds under which tsc leaves `import`/`export` as they are. */
const ES_MODULES = new Set(['es2015', 'es2020', 'es2022', 'esnext', 'preserve']);

/** The module format a project compiles the generated `.ts` files to; see the file's comment. */
export function chooseModuleFormat(facts: ProjectModuleFacts): ModuleFormatChoice {
  const { tsconfig } = facts;
  if (tsconfig === undefined && facts.unreadable === undefined && facts.packageType !== undefined) {
    return { format: undefined, target: 'js+dts', reason: 'no tsconfig.json found: a JavaScript project, so the output is .js ES modules (which `import` and `require` load) with .d.ts declarations (target js+dts)' };
  }
  if (tsconfig === undefined) {
    const why = facts.unreadable === undefined ? 'no tsconfig.json found' : `the tsconfig could not be read (${facts.unreadable})`;
    return { format: undefined, reason: `${why}; set "moduleFormat": "commonjs" if a CommonJS build compiles the generated files` };
  }
  const { shown, module } = tsconfig;
  if (module === 'commonjs') return { format: 'commonjs', reason: `${shown} compiles to CommonJS (module commonjs)` };
  if (ES_MODULES.has(module)) return { format: 'esm', reason: `${shown} keeps ES modules (module ${module})` };
  if (!NODE_MODULES.has(module)) return { format: undefined, reason: `${shown} compiles to module ${module}, which schema-sync does not write for` };
  if (facts.packageType === 'module') return { format: 'esm', reason: `${shown} has module ${module} and package.json says "type": "module"` };
  if (!tsconfig.verbatimModuleSyntax) return { format: 'commonjs', reason: `${shown} has module ${module} in a CommonJS package: tsc compiles the generated files to CommonJS` };
  // verbatimModuleSyntax refuses import/export in a CommonJS file: only ES modules compile, and
  // only by their extension do they stay ES modules in an outDir that their marker does not reach.
  return {
    format: 'mts',
    reason: `${shown} has module ${module} and verbatimModuleSyntax in a CommonJS package: the generated files are .mts ES modules, compiled to .mjs wherever tsc puts them; CommonJS code imports them with \`import schema = require('./…/index.mjs')\``,
    ...(module === 'node16' ? { caution: 'under module node16 a CommonJS file cannot import an ES module (TS1479): use module nodenext (TypeScript 5.8 or later), or turn verbatimModuleSyntax off and set "moduleFormat": "commonjs".' } : {}),
  };
}

/** How a choice is said: "Module format esm (the default)", "Module format mts", "Target js+dts". */
export function formatChoiceText(choice: ModuleFormatChoice): string {
  if (choice.target !== undefined && choice.format === undefined) return `Target ${choice.target}`;
  return `Module format ${choice.format ?? 'esm (the default)'}${choice.target === undefined ? '' : `, target ${choice.target}`}`;
}

/**
 * Reads the facts of the project around `configDir` whose generated files go to `outDir`: the
 * tsconfig tsc finds from `configDir` upward, and the package.json nearest the output folder
 * (not its own, which is schema-sync's marker).
 */
export async function readProjectModuleFacts(configDir: string, outDir: string, cwd: string): Promise<ProjectModuleFacts> {
  const packageType = await nearestPackageType(dirname(outDir));
  // Found as tsc finds it; the compiler is loaded only to read one.
  const path = await nearest(configDir, 'tsconfig.json');
  if (path === undefined) return { packageType };
  const ts = loadTypeScript();
  const problems: string[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(path, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')),
  });
  const shown = relative(cwd, path) || path;
  if (parsed === undefined || problems.length > 0) return { packageType, unreadable: `${shown}: ${problems.join('; ') || 'unreadable'}` };
  const { options } = parsed;
  // As tsc defaults it: CommonJS for an ES5 target, else ES modules.
  const kind = options.module ?? ((options.target ?? ts.ScriptTarget.ES2015) < ts.ScriptTarget.ES2015 ? ts.ModuleKind.CommonJS : ts.ModuleKind.ES2015);
  const module = String(ts.ModuleKind[kind]).toLowerCase();
  return { packageType, tsconfig: { shown, module, verbatimModuleSyntax: options.verbatimModuleSyntax === true } };
}

/** The path of the file `name` in `dir` or the nearest folder above it that holds one. */
async function nearest(dir: string, name: string): Promise<string | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    const path = join(at, name);
    if (await stat(path).then((found) => found.isFile(), () => false)) return path;
    if (dirname(at) === at) return undefined;
  }
}

/** The `"type"` of the nearest package.json from `dir` upward (`commonjs` when it has none, as Node reads it); undefined without one. */
async function nearestPackageType(dir: string): Promise<string | undefined> {
  const path = await nearest(dir, 'package.json');
  if (path === undefined) return undefined;
  try {
    const type = (JSON.parse(await readFile(path, 'utf8')) as { type?: unknown }).type;
    return typeof type === 'string' ? type : 'commonjs';
  } catch {
    return 'commonjs';
  }
}
