/**
 * The emit stage: maps descriptors to the texts of the generated files. See `emit-files.ts` for
 * the pipeline and `naming.ts` for how names become identifiers and file names.
 */
export { type EmitOptions, type EmittedFile, emitFiles, emitFilesFor } from './emit-files.js';
export { planNames, type PlannedName, GENERATED_EXPORTS } from './naming.js';
export { formatWithPrettier } from './prettier.js';
export { validatePackageName } from './package-files.js';
export { TEMPLATE_FILES, TEMPLATE_VARIABLES, BUILTIN_TEMPLATES_DIR } from './templates.js';
