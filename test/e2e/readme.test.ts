/**
 * The README and the reference pages in docs/ say what the code does: each assertion sits with
 * the page that now holds its content. The commands they show are run by docs-commands.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUGGESTED_SCRIPTS } from '../../src/cli/commands/init.js';
import { configSchema } from '../../src/config/schema.js';
import { runCli } from '../helpers/in-process.js';
import { ROOT, tempDir, removeDir } from '../helpers/cli.js';
import { exampleListing } from '../helpers/listing.js';
import { anchorsOf, codeBlocks, docPages, inlineCode, relativeLinks, type DocPage } from '../helpers/markdown.js';

const pages = docPages();
const page = (path: string): DocPage => pages.find((p) => p.path === path)!;
const README = page('README.md').text;
const blocksOf = (path: string) => codeBlocks(page(path));
/** The text of a page from one heading to the next one named (or to the end). */
const section = (path: string, from: string, to?: string) => {
  const text = page(path).text;
  const start = text.indexOf(from);
  expect(start, `${path} has "${from}"`).toBeGreaterThanOrEqual(0);
  return text.slice(start, to === undefined ? undefined : text.indexOf(to, start));
};

describe('README', () => {
  it('keeps the two quick start lines', () => {
    const quick = README.slice(README.indexOf('## Quick start'));
    expect(codeBlocks({ path: 'README.md', text: quick })[0]!.body).toBe('npm ci && npm run demo\nnpm ci && npm test\n');
  });

  it('is short, and its table of contents names each of its sections and each reference page', () => {
    expect(README.split('\n').length).toBeLessThan(200);
    const contents = section('README.md', '## Contents', '## Quick start');
    for (const heading of [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((h) => h !== 'Contents')) {
      expect(contents).toContain(`(#${heading.toLowerCase().replace(/ /g, '-')})`);
    }
    const pagesInDocs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    for (const name of pagesInDocs) expect(contents, name).toContain(`(docs/${name})`);
    for (const name of ['configuration', 'commands', 'rules', 'record-types', 'ci-workflows', 'troubleshooting', 'performance']) {
      expect(pagesInDocs).toContain(`${name}.md`);
    }
  });

  it('installs schema-sync in a form npm ci resolves on any machine: the tarball by a path inside the repository, a git URL without a placeholder', () => {
    const install = section('README.md', '## Install', '## The first pull');
    expect(install).toContain('npm install --save-dev ./vendor/schema-sync-0.1.0.tgz');
    expect(install).toContain('"file:vendor/schema-sync-0.1.0.tgz"');
    expect(install).not.toMatch(/<owner>|<[a-z-]+>\/schema-sync/);
    expect(section('docs/ci-workflows.md', '## Installing schema-sync on a runner', '## Drift check')).toContain('file:vendor/schema-sync-0.1.0.tgz');
  });

  it('shows the npm scripts init suggests', () => {
    const block = blocksOf('README.md').find((b) => b.lang === 'json' && b.body.includes('"prebuild"'));
    expect(JSON.parse(block!.body)).toEqual({ scripts: SUGGESTED_SCRIPTS });
  });
});

describe('README and docs/', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const { path, text } of pages) {
      for (const link of relativeLinks(text)) {
        const [file, anchor] = link.split('#') as [string, string | undefined];
        const target = file === '' ? path : join(dirname(path), file);
        let targetText: string;
        try {
          targetText = readFileSync(join(ROOT, target), 'utf8');
        } catch {
          if (anchor === undefined && (file.endsWith('/') || !file.includes('.'))) continue; // a folder
          broken.push(`${path}: ${link}`);
          continue;
        }
        if (anchor !== undefined && !anchorsOf(targetText).has(anchor)) broken.push(`${path}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('speak of what a user measures, not of the project’s work items', () => {
    for (const { path, text } of pages) expect(text, path).not.toMatch(/\bissues? \d+/i);
  });

  it('name only message types of the example listing (examples/descriptors.json)', () => {
    expect(unknownTypeNames()).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  it('documents every configuration key of the zod schema, and no other', () => {
    const keys = [...section('docs/configuration.md', '## Keys', '## Environment').matchAll(/^\| `([$\w]+)` \|/gm)].map((m) => m[1]);
    expect(keys).toEqual(Object.keys(configSchema.shape));
  });
});

describe('docs/commands.md', () => {
  it('has the exit code table', () => {
    const exitCodes = section('docs/commands.md', '## Exit codes', '## Comparing lockfiles');
    for (const code of ['| 0 |', '| 1 |', '| 2 |']) expect(exitCodes).toContain(code);
  });
});

describe('docs/rules.md', () => {
  it('has the severity rules, and the rules exactly as `schema-sync rules` lists them', async () => {
    expect(page('docs/rules.md').text).toContain('## Drift severity');
    const cwd = await tempDir('schema-sync-docs-rules-');
    try {
      const listed = await runCli(['rules'], { cwd });
      expect(blocksOf('docs/rules.md').some((b) => b.lang === 'text' && listed.stdout.startsWith(b.body))).toBe(true);
    } finally {
      await removeDir(cwd);
    }
  });
});

describe('docs/generated-code.md', () => {
  it('says how to consume the generated output from another repository', () => {
    expect(page('docs/generated-code.md').text).toContain('## Consuming the generated output from another repository');
  });
});

describe('docs/troubleshooting.md', () => {
  it('covers the common failures', () => {
    const troubleshooting = section('docs/troubleshooting.md', '## Errors, their causes and fixes');
    for (const topic of ['401', 'text/html', 'cut short', 'HTTPS_PROXY']) expect(troubleshooting).toContain(topic);
  });
});

describe('docs/performance.md', () => {
  it('says how to measure, and its table is the latest bench run', () => {
    const performance = page('docs/performance.md').text;
    expect(performance).toContain('`npm run bench`');
    const results = JSON.parse(readFileSync(join(ROOT, 'bench/results.json'), 'utf8')) as { results: Array<{ size: number; run: string }> };
    for (const row of results.results) expect(performance).toContain(`| ${row.size} | ${row.run} |`);
  });
});

describe('docs/ci-workflows.md', () => {
  const yamlBlocks = () => blocksOf('docs/ci-workflows.md').filter((b) => b.lang === 'yaml').map((b) => b.body);

  it('shows the drift check exactly as examples/schema-drift-workflow.yml: on a schedule, never on pull requests', async () => {
    const file = await readFile(join(ROOT, 'examples/schema-drift-workflow.yml'), 'utf8');
    expect(yamlBlocks()[0]).toBe(file);
    expect(file).toMatch(/^on:\n {2}schedule:\n {4}- cron: '[^']+'/m);
    expect(file).not.toMatch(/^ {2}pull_request/m);
    expect(file).toContain('run: npx schema-sync check --format github');
    expect(file).toContain('${{ secrets.SCHEMA_SYNC_API_KEY }}');
  });

  it('shows the update and review workflows exactly as their files in examples/', async () => {
    for (const name of ['schema-update-workflow.yml', 'schema-review-workflow.yml']) {
      expect(yamlBlocks()).toContain(await readFile(join(ROOT, 'examples', name), 'utf8'));
    }
  });
});

/**
 * The message-type names the pages use that the example listing does not have. A name is read
 * where only a message type can stand: a report line (`added`/`removed`/`changed`/`renamed X`),
 * `messages['X']`, `typeof X.`, a type argument or `isElementOf`/`mTyp` in code, a `message`,
 * `include` or `exclude` glob of a config (which must match a type), `--msg-type X`; and any
 * inline `CamelCase` name that is no identifier of schema-sync's own code.
 */
function unknownTypeNames(): string[] {
  const types = new Set(exampleListing().map((element) => String(element.message['name'])));
  const isType = (name: string) => types.has(name) || types.has(name.replace(/(?:Record|PKey)$/, ''));
  const matchesType = (glob: string) => {
    const pattern = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
    return [...types].some((name) => pattern.test(name));
  };
  const codeNames = sourceIdentifiers();
  const unknown = new Set<string>();
  for (const { path, text } of pages) {
    const blocks = codeBlocks({ path, text });
    const code = blocks.filter((b) => b.lang !== 'text').map((b) => b.body).join('\n');
    const pictures = blocks.filter((b) => b.lang === 'text').map((b) => b.body).join('\n');
    const inline = inlineCode(text);
    const named = [
      ...[...pictures.matchAll(/^\s*(?:added|removed|changed|renamed) (\w+)/gm)].map((m) => m[1]!),
      ...[...`${code}\n${inline.join('\n')}`.matchAll(/messages\['(\w+)'\]|typeof (\w+)\.|isElementOf\(\w+, '(\w+)'\)|mTyp: '(\w+)'|--msg-type (\w+)/g)].map((m) => m.slice(1).find(Boolean)!),
      ...[...code.matchAll(/<('[\w' |]+')>/g)].flatMap((m) => [...m[1]!.matchAll(/'(\w+)'/g)].map((n) => n[1]!)),
      ...inline.filter((span) => /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/.test(span) && !codeNames.has(span)),
    ];
    for (const name of named) if (!isType(name)) unknown.add(`${path}: ${name}`);
    const globs = [
      ...[...code.matchAll(/"message": "([^"]+)"/g)].map((m) => m[1]!),
      ...[...code.matchAll(/"(?:include|exclude)": \[([^\]]*)\]/g)].flatMap((m) => [...m[1]!.matchAll(/(?:^|\[|, )"([^"]+)"/g)].map((g) => g[1]!)),
    ];
    for (const glob of globs) if (!matchesType(glob)) unknown.add(`${path}: ${glob}`);
  }
  return [...unknown];
}

/** Every identifier-like word in the code (comments aside) of schema-sync's sources and the demo's generated declarations. */
function sourceIdentifiers(): Set<string> {
  const names = new Set<string>();
  const add = (path: string) => {
    const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    for (const m of code.matchAll(/[A-Za-z_$][\w$]*/g)) names.add(m[0]);
  };
  const read = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) read(join(dir, entry.name));
      else if (entry.name.endsWith('.ts')) add(join(dir, entry.name));
    }
  };
  read(join(ROOT, 'src'));
  // The records runtime is schema-sync's source too, written into the output folder.
  read(join(ROOT, 'runtime'));
  for (const file of ['index.d.ts', 'types.d.ts']) add(join(ROOT, 'generated-example', file));
  return names;
}
