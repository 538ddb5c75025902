/**
 * Drift impact: type-checks a consumer's TypeScript project against the generated output of the
 * old lockfile and of the new one, both laid in memory over the folder where the project sees
 * the output, and attributes every diagnostic that only the new output has to the message type
 * (and field) whose change caused it. Errors the project has with the old output are not
 * counted. Nothing is written.
 */
import { relative } from 'node:path';
import { ts } from 'ts-morph';
import { Attribution } from './attribute.js';
import { changedMessages } from './changed-fields.js';
import { LibFiles, overlayHost, SourceFileCache, tsPath, type Overlay } from './overlay-host.js';
import { Owners, type GeneratedUse } from './owners.js';
import { loadProjects, type ImpactProject } from './projects.js';
import type { BrokenUse, ImpactResult, MessageImpact, ReferencedUse, SourceLocation } from '../model/impact.js';

export { impactKind, type BrokenUse, type ImpactResult, type MessageImpact, type ReferencedUse, type SourceLocation } from '../model/impact.js';

/** Generated files: paths relative to the output folder (as `emit` gives them) with their texts. */
export type GeneratedOutput = readonly { path: string; text: string }[] | Overlay;

/** Options of {@link impact}. */
export interface ImpactOptions {
  /** The consumer's tsconfig (or a folder holding `tsconfig.json`); projects it references are checked too. */
  project: string;
  /**
   * The folder where the project finds the generated output: the output folder, or an installed
   * copy of the generated package (e.g. `node_modules/@acme/schema`).
   */
  outputRoot: string;
  /** The output of the old lockfile. */
  before: GeneratedOutput;
  /** The output of the new lockfile. */
  after: GeneratedOutput;
  /** Paths in the results are relative to this folder (the repository root). @default process.cwd() */
  root?: string;
}

const overlayOf = (output: GeneratedOutput): Overlay => (output instanceof Map ? output : new Map((output as readonly { path: string; text: string }[]).map((file) => [file.path, file.text])));

/**
 * The diagnostics a compile reports before emitting, of the project's own files and the
 * generated ones: declaration files of libraries and of TypeScript itself are not checked (a
 * change of the generated output cannot make them wrong, and checking them is most of the work).
 */
function diagnosticsOf(program: ts.Program, owners: Owners): readonly ts.Diagnostic[] {
  const files = program.getSourceFiles().filter((file) => owners.isGenerated(file) || !(file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)));
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
}

/** A diagnostic's identity across the two compiles: the consumer's files are the same text in both, so position and code tell one error. */
function keyOf(diagnostic: ts.Diagnostic, owners: Owners): string {
  const file = diagnostic.file;
  if (file === undefined) return `global\0${diagnostic.code}\0${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  if (owners.isGenerated(file)) return `${file.fileName}\0${diagnostic.code}\0${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  return `${file.fileName}\0${diagnostic.start ?? -1}\0${diagnostic.code}`;
}

/** The diagnostics of `after` that `before` does not have, counting repeats. */
function newDiagnostics(before: readonly ts.Diagnostic[], after: readonly ts.Diagnostic[], owners: { before: Owners; after: Owners }): ts.Diagnostic[] {
  const seen = new Map<string, number>();
  for (const d of before) {
    const key = keyOf(d, owners.before);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return after.filter((d) => {
    const key = keyOf(d, owners.after);
    const left = seen.get(key) ?? 0;
    if (left === 0) return true;
    seen.set(key, left - 1);
    return false;
  });
}

/** One use a line (the one naming a field, where there is one): `Quote.mNum` is one place, not two. */
function onePerLine(places: readonly ReferencedUse[]): ReferencedUse[] {
  const byLine = new Map<string, ReferencedUse>();
  for (const place of places) {
    const key = `${place.file}\0${place.line}`;
    const kept = byLine.get(key);
    if (kept === undefined || (kept.field === undefined && place.field !== undefined)) byLine.set(key, place);
  }
  return [...byLine.values()];
}

function locationOf(file: ts.SourceFile, position: number, root: string): SourceLocation {
  const { line, character } = file.getLineAndCharacterOfPosition(position);
  return { file: relative(root, file.fileName).split('\\').join('/'), line: line + 1, column: character + 1 };
}

/** The uses of changed messages' declarations in the consumer's own files, as the old output declares them. */
function references(program: ts.Program, owners: Owners, changed: ReadonlySet<string>, root: string): Map<string, ReferencedUse[]> {
  // Only identifiers spelled like a declaration of a changed module are asked of the checker.
  const names = new Set<string>();
  for (const file of program.getSourceFiles()) {
    const message = owners.messageOf(file);
    if (message === undefined || !changed.has(message)) continue;
    const collect = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) names.add(node.text);
      node.forEachChild(collect);
    };
    collect(file);
  }
  const uses = new Map<string, ReferencedUse[]>();
  for (const file of program.getSourceFiles()) {
    if (owners.isGenerated(file) || file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
      // A name spelled like a generated declaration, a string that names a changed message type or
      // a generated property (`X['field']`), a registry's number (`messagesByNumber[10]`).
      const named = ts.isStringLiteral(node) && changed.has(node.text);
      const candidate = ts.isIdentifier(node) || ts.isStringLiteral(node) ? names.has(node.text) : ts.isNumericLiteral(node) && ts.isElementAccessExpression(node.parent);
      if (named || candidate) {
        for (const use of named ? [{ message: (node as ts.StringLiteral).text }] : owners.usesAt(node)) {
          if (!changed.has(use.message)) continue;
          const list = uses.get(use.message) ?? [];
          list.push({ ...locationOf(file, node.getStart(file), root), ...(use.field !== undefined && { field: use.field }) });
          uses.set(use.message, list);
        }
      }
      node.forEachChild(visit);
      // JavaScript's types are in its JSDoc (`@type {import('./gen/index.js').QuoteRecord}`), which no child holds.
      if (javaScript) for (const doc of ts.getJSDocCommentsAndTags(node)) if (ts.isJSDoc(doc) && doc.parent === node) doc.forEachChild(visit);
    };
    const javaScript = /\.[cm]?jsx?$/.test(file.fileName);
    visit(file);
  }
  return uses;
}

/** An error inside a generated module is that module's message's. */
const generatedUse = (message: string | undefined): GeneratedUse[] => (message === undefined ? [] : [{ message }]);

/** What the compiles of one impact check share: parsed files, and TypeScript's lib files with the process's other checks. */
interface Shared {
  cache: SourceFileCache;
  libs: LibFiles;
}

function checkProject(project: ImpactProject, options: ImpactOptions, overlays: { before: Overlay; after: Overlay }, shared: Shared, root: string, result: ImpactResult): void {
  const top = `${tsPath(options.outputRoot)}/`;
  const inOutput = (name: string): boolean => tsPath(name).startsWith(top);
  // Where the project compiles the output folder's files itself, the files of each output are its roots.
  const compilesOutput = project.rootNames.some(inOutput);
  const rootsOf = (overlay: Overlay): string[] => [
    ...project.rootNames.filter((name) => !inOutput(name)),
    ...(compilesOutput ? [...overlay.keys()].filter((path) => /\.(d\.)?[cm]?tsx?$/.test(path)).map((path) => `${top}${path}`) : []),
  ];
  const before = ts.createProgram({ rootNames: rootsOf(overlays.before), options: project.options, host: overlayHost(project.options, options.outputRoot, overlays.before, shared.cache, shared.libs) });
  const after = ts.createProgram({ rootNames: rootsOf(overlays.after), options: project.options, host: overlayHost(project.options, options.outputRoot, overlays.after, shared.cache, shared.libs), oldProgram: before });
  const owners = { before: new Owners(before, options.outputRoot), after: new Owners(after, options.outputRoot) };
  const fresh = newDiagnostics(diagnosticsOf(before, owners.before), diagnosticsOf(after, owners.after), owners);
  const changed = changedMessages({ program: before, owners: owners.before, overlay: overlays.before }, { program: after, owners: owners.after, overlay: overlays.after });
  const attribution = new Attribution([owners.before, owners.after], changed);
  const entry = (message: string): MessageImpact => (result.messages[message] ??= { broken: [], referenced: [] });
  const brokenAt = new Set<string>();
  for (const diagnostic of fresh) {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file;
    const place = file === undefined ? { file: relative(root, project.configPath), line: 0, column: 0 } : locationOf(file, diagnostic.start ?? 0, root);
    const broken: BrokenUse = { ...place, code: diagnostic.code, message: text };
    const uses = file === undefined ? [] : owners.after.isGenerated(file) ? generatedUse(owners.after.messageOf(file)) : attribution.of(file, diagnostic.start ?? 0, diagnostic.length ?? 0, text);
    if (uses.length === 0) result.unattributed.push(broken);
    for (const use of uses) {
      entry(use.message).broken.push(use.field === undefined ? broken : { ...broken, field: use.field });
      brokenAt.add(`${use.message}\0${place.file}\0${place.line}`);
    }
  }
  for (const [message, places] of references(before, owners.before, changed.names, root)) {
    const stillCompiles = onePerLine(places).filter((place) => !brokenAt.has(`${message}\0${place.file}\0${place.line}`));
    if (stillCompiles.length > 0) entry(message).referenced.push(...stillCompiles);
  }
  for (const message of changed.names) entry(message);
}

/**
 * Checks the project named by `options.project` (and the projects it references) against the
 * old and the new generated output, and says which message types' changes break its compile
 * and where, which are used but still compile, and which are not used.
 * @throws ConfigError when the tsconfig does not exist or cannot be read.
 */
export function impact(options: ImpactOptions): ImpactResult {
  const root = options.root ?? process.cwd();
  const overlays = { before: overlayOf(options.before), after: overlayOf(options.after) };
  const projects = loadProjects(options.project);
  const result: ImpactResult = { projects: projects.map((p) => relative(root, p.configPath).split('\\').join('/')), messages: {}, unattributed: [] };
  const shared = { cache: new SourceFileCache(), libs: LibFiles.shared() };
  for (const project of projects) checkProject(project, options, overlays, shared, root, result);
  return result;
}
