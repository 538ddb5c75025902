/**
 * The emit stage: descriptors in, TypeScript file texts out. Pure apart from reading
 * templates; writing is the `write` stage's job.
 */
export { type EmitOptions, type EmittedFile, emitFiles, renderSelected } from './emit-files.js';
export { outputSettingsKey, planOutput, type PlannedFile } from './plan-output.js';
export { planNames } from './naming.js';
export { formatWithPrettier, prettierFormatKey } from './prettier.js';
export { MODULE_MARKER_PATH } from './module-marker.js';
