// Types of import-graph.mjs (plain JavaScript so that it runs under plain node).

/** One import of a module: the module it names (relative to the graph's folder), and whether it brings types alone. */
export interface ImportEdge {
  to: string;
  typeOnly: boolean;
}

/** The folders of src/ that are stages or the layers over them. */
export const STAGES: readonly string[];

/** The modules under `dir` with their imports of other modules under it. */
export function importGraph(dir: string, ext: '.js' | '.ts'): Map<string, ImportEdge[]>;

/** The runtime import cycles of a graph, each as a path returning to its start. */
export function importCycles(graph: ReadonlyMap<string, readonly ImportEdge[]>): string[][];

/** The runtime imports that break the layering, one line each. */
export function layeringProblems(dist: ReadonlyMap<string, readonly ImportEdge[]>): string[];

/** The imports of incremental/ of anything but model/ and util/ (types too), one line each. */
export function cacheImportProblems(src: ReadonlyMap<string, readonly ImportEdge[]>): string[];

/** Every finding over the built JavaScript of the checkout at `root`. */
export function importFindings(root?: string): { cycles: string[]; layering: string[] };
