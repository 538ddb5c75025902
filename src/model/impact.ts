/**
 * Drift impact: what a schema change does to a consumer's own TypeScript project, found by
 * type-checking it against the old and the new generated output (`src/impact/`). Shared by the
 * impact check, the reports and the library API.
 */

/** A place in the consumer's code. */
export interface SourceLocation {
  /** Path relative to the repository root (or the project root outside a repository), forward slashes. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** A new error of the consumer's compile. */
export interface BrokenUse extends SourceLocation {
  /** The TypeScript error code, e.g. 2339. */
  code: number;
  message: string;
  /** The field of the message type it involves, where that can be told. */
  field?: string;
}

/** A use of changed generated code that still compiles. */
export interface ReferencedUse extends SourceLocation {
  field?: string;
}

/** What a change of one message type does to the projects checked. */
export interface MessageImpact {
  broken: BrokenUse[];
  referenced: ReferencedUse[];
}

/** The impact of a change of the generated output on the projects checked. */
export interface ImpactResult {
  /** The tsconfig files checked (with the projects they reference), relative to the root. */
  projects: string[];
  /** Per message type whose generated code changed (added, removed or changed). */
  messages: Record<string, MessageImpact>;
  /** New errors that could not be tied to a message type: listed, never dropped. */
  unattributed: BrokenUse[];
}

/** Whether a message type's change breaks the projects' code, is used by it and still compiles, or is not used: how reports word it. */
export function impactKind(entry: MessageImpact | undefined): 'broken' | 'referenced' | 'unused' {
  if (entry === undefined) return 'unused';
  if (entry.broken.length > 0) return 'broken';
  return entry.referenced.length > 0 ? 'referenced' : 'unused';
}
