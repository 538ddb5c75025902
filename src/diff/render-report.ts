import { renderGithub } from './render-github.js';
import { renderJson } from './render-json.js';
import { renderMarkdown } from './render-markdown.js';
import { renderText } from './render-text.js';
import type { DriftReport, RenderOptions } from './types.js';

/**
 * Renders a report in the `--format` the user chose: `text` for people, `json` for scripts
 * (exactly one object), `markdown` for a PR comment or job summary, `github` for workflow
 * annotations. `command` picks the wording: `check` reports drift, `pull` what it changed
 * (with `dryRun`, what it would change). The result has no trailing newline; the caller prints
 * it as one line or block.
 *
 * @example
 * process.stdout.write(renderReport(report, { format: 'text', color: true, command: 'check' }) + '\n');
 */
export function renderReport(report: DriftReport, options: RenderOptions): string {
  switch (options.format) {
    case 'text':
      return renderText(report, options);
    case 'json':
      return renderJson(report);
    case 'markdown':
      return renderMarkdown(report, options);
    case 'github':
      return renderGithub(report, options);
  }
}
