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
