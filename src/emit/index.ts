/**
 * The emit stage: descriptors in, the plan of the output and its file texts out. Pure apart from
 * reading templates; writing is the `write` stage's job.
 */
export { type EmitOptions, type EmittedFile, emitFiles, renderPlanned } from './emit-files.js';
export { plan, type EarlierPlan, type PlanInput, type PlannedFile, type PlanSettings } from './plan.js';
export { formatPlan } from './format-plan.js';
export { planNames } from './naming.js';
export { formatWithPrettier } from './prettier.js';
export { MODULE_MARKER_PATH } from './module-marker.js';
export { GIT_ATTRIBUTES_PATH } from './git-attributes.js';
export { planSettingsKey } from './plan-key.js';
export { bannerFirstLines } from './templates.js';
