/**
 * Reading the project's documentation (README.md and docs/*.md) as the tests check it: its
 * fenced blocks with their run markers, the `schema-sync …` commands it shows, its links and
 * the anchors GitHub makes of its headings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

/** One documentation page: its path from the repository root and its text. */
export interface DocPage {
  path: string;
  text: string;
}

/** README.md, then every page in docs/ by name. */
export function docPages(): DocPage[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

/** How a shell block is marked: the HTML comment on the line before its fence. */
export type RunMarker = 'runnable' | 'not runnable' | undefined;

/** A fenced code block: its language, body, the run marker above it and its page. */
export interface CodeBlock {
  lang: string;
  body: string;
  marker: RunMarker;
  /** Why a block is not runnable (the marker's text after the colon). */
  reason?: string;
  page: string;
}

/**
 * The fenced blocks of a page that start at the beginning of a line (an indented block in a list
 * is part of its list item's text). A block is marked by an HTML comment on the line just above
 * its fence, `<!-- runnable -->` or `<!-- not runnable: why -->`: a comment, so the fence line
 * stays what editors and GitHub expect.
 */
export function codeBlocks(page: DocPage): CodeBlock[] {
  return [...page.text.matchAll(/^(?:<!-- (runnable|not runnable)(?:: ([^\n]*?))? -->\n)?```(\w*)[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[3]!,
    body: m[4]!,
    marker: m[1] as RunMarker,
    ...(m[2] === undefined ? {} : { reason: m[2] }),
    page: page.path,
  }));
}

/** Shell blocks, whatever the fence calls the shell. */
export function isShellBlock(block: CodeBlock): boolean {
  return ['sh', 'bash', 'shell', 'console'].includes(block.lang);
}

/** The inline code spans of a page's text outside its fenced blocks. */
export function inlineCode(text: string): string[] {
  return [...text.replace(/^ *```[\s\S]*?^ *```$/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/**
 * Every `schema-sync …` command a page shows in its code blocks (pictures in `text` blocks
 * aside) and inline code, as argv without the program: commands of the kinds that run alone
 * (`diff` needs its lockfiles, and is run from the runnable blocks).
 */
export function shownCommands(page: DocPage): string[][] {
  const texts = [...codeBlocks(page).filter((b) => b.lang !== 'text').map((b) => b.body), ...inlineCode(page.text)];
  const commands: string[][] = [];
  for (const text of texts) {
    for (const line of text.split('\n')) {
      for (const match of line.matchAll(/(?:^|[\s"'])(?:npx )?schema-sync ((?:init|pull|check|generate|rules|serve|--)[^"'#\n]*)/g)) {
        commands.push(match[1]!.trim().split(/\s+/));
      }
    }
  }
  return commands;
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings (outside fenced blocks). */
export function anchorsOf(text: string): Set<string> {
  const outside = text.replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...outside.matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingAnchor(m[1]!)));
}

/** The relative links of a page (`[text](target)`, not http(s) or mailto), outside fenced blocks. */
export function relativeLinks(text: string): string[] {
  const outside = text.replace(/^ *```[\s\S]*?^ *```$/gm, '');
  return [...outside.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^(?:https?|mailto):/.test(target));
}
