import { commentText } from '../text/safe-text.js';
import type { CompiledTemplate } from './templates.js';
import type { PlanSettings } from './plan.js';

/** The banner at the top of every generated code file, as the settings make it. */
export interface Banner {
  /**
   * What it reads besides a message's name and hash (its template and the values it takes from
   * the settings): part of the input of every message module, so a change re-renders them all.
   */
  readonly view: readonly unknown[];
  /** The banner of the whole listing's files (index, types), whose inputs hold its text. */
  readonly shared: string;
  /** A message module's banner. */
  of(message: { name: string; schemaHash: string }): string;
}

/**
 * The banner from its template and the settings: the one renderer of it, and what it reads of
 * the settings (the package name). A generation setting that changes the banner is read here.
 */
export function bannerOf(template: CompiledTemplate<'banner'>, settings: PlanSettings): Banner {
  const values = { packageName: settings.package === undefined ? undefined : commentText(settings.package) };
  return {
    view: [template.source, values],
    shared: template.render(values),
    of: (message) => template.render({ ...values, schemaHash: commentText(message.schemaHash), messageName: commentText(message.name) }),
  };
}
