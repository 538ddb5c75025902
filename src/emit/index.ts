/**
 * The emit stage: descriptors in, TypeScript file texts out. Pure apart from reading
 * templates; writing is the `write` stage's job.
 */
export { type EmitOptions, type EmittedFile, emitFiles, renderSelected, type RenderSelectedOptions } from './emit-files.js';
export { outputSettingsKey, planOutput, type PlannedFile, type PlanOptions } from './plan-output.js';
export { planNames, type PlannedName, GENERATED_EXPORTS } from './naming.js';
export { formatWithPrettier, prettierFormatKey } from './prettier.js';
export { validatePackageName } from './package-files.js';
export { MODULE_MARKER_PATH } from './module-marker.js';
export { TEMPLATE_FILES, TEMPLATE_VARIABLES, BUILTIN_TEMPLATES_DIR } from './templates.js';
