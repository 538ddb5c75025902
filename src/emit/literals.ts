/**
 * Encoders that put server-controlled text into generated source: string literals, TSDoc lines
 * and banner (line comment) values. They are the code destinations of the one safe-text boundary
 * (`text/safe-text.ts`), which holds the set of characters that never reach a file raw.
 */
export { commentText, docLines, lineText, stringLiteral } from '../text/safe-text.js';
