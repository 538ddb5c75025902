#!/usr/bin/env node
// The import graph of src/ and the rules it keeps (docs/ARCHITECTURE.md, "Folder map"):
// no runtime import cycle in the built JavaScript (dist/), util/ imports nothing else of src/,
// model/ imports no stage, and the cache (incremental/) imports nothing but model/ and util/
// (read from the source, so that a type of a stage counts too).
// Usage: npm run build && node scripts/import-graph.mjs   (exit 1 and each finding on stderr)
// test/architecture/import-graph.test.ts runs the same checks.
//
// Each module's imports are read by TypeScript's parser: its `import … from` and `export … from`
// declarations and its `import('…')` calls (a cycle through a lazily loaded module is a cycle
// still: each side loads the other), so text that merely looks like an import (a template of
// generated code) is no edge. Cross-checked once with `npx madge@8.0.0 --circular dist`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The folders of src/ that are stages or the layers over them: model/ and util/ import none of them. */
export const STAGES = ['cli', 'config', 'fetch', 'diff', 'lock', 'emit', 'write', 'run', 'impact', 'incremental', 'server'];

/**
 * The modules under `dir` (paths relative to it, `/`-separated) with their imports of other
 * modules under it: `{ to, typeOnly }` each, `to` relative to `dir` as well.
 * @param {string} dir an absolute folder: dist/ (`.js`) or src/ (`.ts`)
 * @param {string} ext the modules' extension
 */
export function importGraph(dir, ext) {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ext) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  const known = new Set(files);
  /** @type {Map<string, { to: string, typeOnly: boolean }[]>} */
  const graph = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(dir, file), 'utf8'), ts.ScriptTarget.Latest, false);
    const edges = [];
    const add = (specifier, typeOnly) => {
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
      let to = join(dirname(file), specifier.text).split(sep).join('/');
      if (ext === '.ts') to = to.replace(/\.js$/, '.ts');
      if (known.has(to)) edges.push({ to, typeOnly });
    };
    const visit = (node) => {
      if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
      else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(file, edges);
  }
  return graph;
}

/** Whether an import brings types alone: `import type …`, or every named binding `type`. */
function isTypeOnlyImport(declaration) {
  const clause = declaration.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

/**
 * The cycles of the graph's runtime edges: each strongly connected component of more than one
 * module (or a module importing itself), as one path through it that returns to its start.
 */
export function importCycles(graph) {
  const runtime = (file) => (graph.get(file) ?? []).filter((edge) => !edge.typeOnly).map((edge) => edge.to);
  // Tarjan's strongly connected components.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of runtime(file)) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file), index.get(to)));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || runtime(file).includes(file)) components.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return components.map((component) => cycleThrough(component, runtime));
}

/** One path from the component's first module back to it through the component (breadth first: the shortest). */
function cycleThrough(component, runtime) {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const to of runtime(file)) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]));
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return component;
}

/** The folder of a module path (`model/x.js` → `model`; `index.js` → ``). */
const folderOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '');

/**
 * The runtime imports (of the built JavaScript) that break the layering: `util/` → anything else
 * of src/, `model/` → a stage.
 * @returns {string[]} one line per import, `from → to (why)`
 */
export function layeringProblems(dist) {
  const problems = [];
  for (const [file, edges] of dist) {
    for (const { to } of edges) {
      const from = folderOf(file);
      const into = folderOf(to);
      if (from === 'util' && into !== 'util') problems.push(`${file} → ${to} (util/ imports nothing else of src/)`);
      if (from === 'model' && STAGES.includes(into)) problems.push(`${file} → ${to} (model/ imports no stage)`);
    }
  }
  return problems;
}

/** What incremental/ may import besides its own modules: the domain and the primitives, no stage. */
const CACHE_IMPORTS = ['model', 'util'];

/**
 * The imports of the cache (`incremental/`) of anything but `model/` and `util/`, types too: it
 * stores and recalls facts by content hash, and knows none of the stages whose work it saves.
 * @param src the graph of the source (`.ts`)
 * @returns {string[]} one line per import, `from → to (why)`
 */
export function cacheImportProblems(src) {
  const problems = [];
  for (const [file, edges] of src) {
    if (folderOf(file) !== 'incremental') continue;
    for (const { to } of edges) {
      const into = folderOf(to);
      if (into !== 'incremental' && !CACHE_IMPORTS.includes(into)) problems.push(`${file} → ${to} (incremental/ imports model/ and util/ alone)`);
    }
  }
  return problems;
}

/** Every finding over the built JavaScript and the source of the checkout at `root`. */
export function importFindings(root = ROOT) {
  const dist = importGraph(join(root, 'dist'), '.js');
  const src = importGraph(join(root, 'src'), '.ts');
  return {
    cycles: importCycles(dist).map((cycle) => cycle.join(' → ')),
    layering: [...layeringProblems(dist), ...cacheImportProblems(src)],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { cycles, layering } = importFindings();
  for (const cycle of cycles) process.stderr.write(`import cycle: ${cycle}\n`);
  for (const problem of layering) process.stderr.write(`layering: ${problem}\n`);
  if (cycles.length + layering.length > 0) process.exitCode = 1;
  else process.stdout.write('no import cycle in dist/, layering kept\n');
}
