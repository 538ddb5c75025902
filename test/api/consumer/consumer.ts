// Type-checked (never run) with tsc --strict, module nodenext, against the built .d.ts files.
import {
  check,
  diffDescriptors,
  diffLockfiles,
  emit,
  fetchDescriptors,
  generate,
  isSchemaSyncError,
  NetworkError,
  pull,
  SchemaSyncError,
  type CheckResult,
  type Descriptor,
  type DiffOptions,
  type DiffResult,
  type DriftChange,
  type DriftReport,
  type EmittedFile,
  type ErrorCode,
  type FetchOptions,
  type FetchResult,
  type GenerateResult,
  type PullOptions,
  type PullResult,
  type RuleId,
  type Severity,
} from 'schema-sync';

export async function build(baseUrl: string): Promise<number> {
  const options: PullOptions = { baseUrl, out: 'src/generated/schema', cmd: 'getmsgtypes', limit: 5000, dryRun: false };
  const pulled: PullResult = await pull(options);
  const written: number = pulled.write?.written.length ?? 0;
  const report: DriftReport = pulled.report;
  const breaking: number = report.summary.breaking;

  const checked: CheckResult = await check({ baseUrl, out: 'src/generated/schema' });
  const inSync: boolean = checked.report.inSync;
  const generated: GenerateResult = await generate({ out: 'src/generated/schema' });

  const fetchOptions: FetchOptions = { baseUrl, apiKey: process.env['SCHEMA_SYNC_API_KEY'], retries: 1, timeout: 5000 };
  const fetched: FetchResult = await fetchDescriptors(fetchOptions);
  const first: Descriptor | undefined = fetched.descriptors[0];
  const mNum: number | undefined = first?.mNum;
  const changes: DriftChange[] = diffDescriptors({ locked: fetched.descriptors, fetched: fetched.descriptors });
  const severities: Severity[] = changes.map((change) => change.severity);
  const diffOptions: DiffOptions = {
    against: 'origin/main',
    rules: { SCHEMA_HASH_CHANGED: 'safe', FIELD_APPEARED: 'off' },
    accept: [{ rule: 'MESSAGE_REMOVED', message: 'Legacy*', reason: 'retired', before: { mNum: 7 } }],
    include: ['Order*', { mToken: 'Trading' }],
  };
  const diffed: DiffResult = await diffLockfiles(diffOptions);
  const rule: RuleId | undefined = diffed.report.changes[0]?.rule;
  const accepted: string[] = diffed.report.accepted.map((change) => change.reason);
  void rule;
  void accepted;
  // @ts-expect-error: rule ids are a closed set
  await diffLockfiles({ against: 'main', rules: { MESAGE_REMOVED: 'off' } });
  const files: EmittedFile[] = await emit({ messages: fetched.descriptors, source: fetched.source, package: '@acme/schema' });
  const paths: string[] = files.map((file) => file.path);

  try {
    await fetchDescriptors({ baseUrl: 'http://127.0.0.1:9' });
  } catch (error) {
    if (error instanceof NetworkError) {
      const status: number | undefined = error.status;
      const code: ErrorCode = error.code;
      void status;
      void code;
    }
    if (isSchemaSyncError(error)) {
      const hint: string | undefined = error.hint;
      void hint;
    }
    if (error instanceof SchemaSyncError && error.code === 'NETWORK') return 2;
  }

  // @ts-expect-error: the API key is an option, never a config key of pull
  await pull({ baseUrl, apikey: 'x' });
  // @ts-expect-error: an unknown error code is not an ErrorCode
  const wrong: ErrorCode = 'NOPE';
  void wrong;

  return written + breaking + (inSync ? 0 : 1) + generated.messageCount + (mNum ?? 0) + severities.length + paths.length;
}
