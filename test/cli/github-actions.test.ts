import { describe, expect, it } from 'vitest';
import { failureAnnotation, failureSummary } from '../../src/cli/github-actions.js';

describe('a failed run for GitHub', () => {
  const parts = { code: 'RESPONSE', message: 'the service answered 100% <html>\r\n::error::fake\n```', hint: 'use `--base-url`' };

  it('is one ::error line: %, CR and LF escaped, so nothing in the message can start a command of its own', () => {
    expect(failureAnnotation('check', parts)).toBe(
      '::error title=schema-sync check failed (RESPONSE)::the service answered 100%25 <html>%0D%0A::error::fake%0A```%0Ahint: use `--base-url`',
    );
    expect(failureAnnotation('', { code: 'USAGE', message: 'Name a command' })).toBe('::error title=schema-sync failed (USAGE)::Name a command');
  });

  it('is a summary section whose code block no line of the message can close', () => {
    expect(failureSummary('pull', parts)).toBe(
      [
        '### schema-sync pull failed',
        '',
        'Exit code 2 (RESPONSE): `pull` did not finish; the lockfile and the output folder are as they were.',
        '',
        '````text',
        'the service answered 100% <html>\r',
        '::error::fake',
        '```',
        'hint: use `--base-url`',
        '````',
      ].join('\n'),
    );
  });
});

describe('a failed run with a long error (every invalid element listed)', () => {
  const lines = Array.from({ length: 3_000 }, (_, i) => `  element ${i} ("T${i}"), field message.fNum: expected a non-negative integer, got "ten"`);
  const parts = { code: 'VALIDATION', message: `3000 invalid fields in the field descriptors:\n${lines.join('\n')}`, hint: 'fix the service' };

  it('annotates what the runner shows: the first lines, then how many more the log has', () => {
    const annotation = failureAnnotation('pull', parts);
    const message = annotation.slice(annotation.indexOf('::', 2) + 2);
    expect(message.length).toBeLessThanOrEqual(4_000);
    expect(message).toMatch(/^3000 invalid fields in the field descriptors:%0A {2}element 0 /);
    expect(message).toMatch(/%0A… and \d+ more lines \(the job's log has the whole error\)$/);
  });

  it('summarises within what a step summary takes, the code block closed', () => {
    const summary = failureSummary('pull', parts);
    expect(summary.length).toBeLessThan(65_536);
    expect(summary).toMatch(/\n {2}element \d+ .*\n```\n\n… and \d+ more lines \(the job's log has the whole error\)$/);
  });
});
