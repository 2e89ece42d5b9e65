import { GroupShootClient } from '#lib/client/groupshoot-client';
import { runAdmin } from '../admin/run-admin';
import { CliError, EXIT_CODE, UsageError, describeFailure, firstLineOf, reportFailure } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import { connectionSettings } from '../cli-kit/local-api';
import type { CliEnvironment } from '../cli-kit/local-servers';
import { optionalText, optionalWholeNumber } from '../cli-kit/options';
import { type CliIo, formatTable, printResult } from '../cli-kit/output';
import { useLocalTable } from '../cli-kit/table-environment';
import { type SmokeReceiver, startSmokeReceiver } from './smoke-receiver';
import { type AdminCommand, type SmokeSubjects, smokeSteps } from './smoke-steps';

export const SMOKE_USAGE = [
  'Usage: npm run smoke -- --api-url URL --tenant SLUG --api-key KEY [--webhook-port N [--webhook-url URL]] [--wait SECONDS] [--data DIR] [--json]',
  '',
  'A check of a deployed stage (or of npm start): makes a throwaway gallery, checks a participant in, imports one',
  'row, reads the persons, uploads a photo through the presigned path and waits for its ingest, and, with a',
  'webhook receiver, waits for the signed person.created of the import. Then it erases everything it made and',
  'checks that the gallery is gone. Prints a pass/fail table; exit code 0 when every step passed, 1 otherwise.',
  '',
  '  --api-url URL       the API, ending in /v1 (the stack output ApiUrl); default GROUPSHOOT_API_URL',
  '  --tenant SLUG       a tenant of the stage; default GROUPSHOOT_TENANT',
  '  --api-key KEY       an API key of the tenant; default GROUPSHOOT_API_KEY',
  '  --webhook-port N    start a webhook receiver on port N (0: any free port) and subscribe it for the check',
  '  --webhook-url URL   the URL the API delivers to, when it is not http://127.0.0.1:N/ (a tunnel to the receiver)',
  '  --wait SECONDS      how long to wait for the ingest and the webhook (default 60)',
  '  --data DIR          the local server started with npm start -- --data DIR',
  'The gallery is made and erased with the admin commands, against TABLE_NAME and MEDIA_BUCKET (AWS credentials),',
  'else against the running npm start, whose API, tenant and key are also the defaults. See docs/deployment.md.',
];

const OPTIONS = {
  'api-url': { type: 'string' },
  tenant: { type: 'string' },
  'api-key': { type: 'string' },
  'webhook-port': { type: 'string' },
  'webhook-url': { type: 'string' },
  wait: { type: 'string' },
  data: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** One line of the table: the step, pass or fail, and what it saw or why it failed. */
export interface SmokeResult {
  step: string;
  outcome: 'pass' | 'fail' | 'skipped';
  detail: string;
}

/** What `--json` prints, and what the tests read: the results and what was made (and erased). */
export interface SmokeReport {
  passed: boolean;
  results: SmokeResult[];
  made: SmokeSubjects;
}

/** Runs `npm run smoke -- <argv>`; returns the exit code. */
export async function runSmoke(
  argv: readonly string[],
  io: CliIo,
  environment: CliEnvironment = { env: process.env, workingDirectory: process.cwd() },
): Promise<number> {
  let receiver: SmokeReceiver | undefined;
  try {
    const { values } = parseCommandLine(argv, OPTIONS, { command: 'smoke', help: 'npm run smoke -- --help' });
    if (values.help === true) return (SMOKE_USAGE.forEach((line) => io.out(line)), EXIT_CODE.ok);
    const dataDir = optionalText(values, 'data');
    const connection = await connectionSettings(
      {
        settings: {
          baseUrl: optionalText(values, 'api-url', 2000),
          tenantSlug: optionalText(values, 'tenant'),
          apiKey: optionalText(values, 'api-key', 1000),
        },
        dataDir,
      },
      environment,
      (line) => io.err(line),
    );
    const webhookPort = optionalWholeNumber(values, 'webhook-port', 0);
    const webhookUrl = optionalText(values, 'webhook-url', 2048);
    if (webhookUrl && webhookPort === undefined)
      throw new UsageError('--webhook-url needs --webhook-port: the receiver the URL leads to');
    // Once for every admin command: the first would otherwise fill TABLE_NAME in, and the next refuse --data beside it.
    const note = useLocalTable(environment, dataDir);
    if (note) io.err(note);
    const waitSeconds = optionalWholeNumber(values, 'wait', 1) ?? 60;
    receiver = webhookPort === undefined ? undefined : await startSmokeReceiver(webhookPort);
    const report = await runSteps({
      api: new GroupShootClient(connection),
      admin: adminInProcess(environment),
      subjects: { tenantSlug: connection.tenantSlug, personIds: [], inboxPaths: [] },
      receiver,
      webhookUrl: receiver && (webhookUrl ?? `http://127.0.0.1:${receiver.port}/`),
      waitMs: waitSeconds * 1000,
    });
    printResult(io, { data: report, lines: reportLines(report, connection.baseUrl) }, values.json === true);
    return report.passed ? EXIT_CODE.ok : EXIT_CODE.failed;
  } catch (error) {
    return reportFailure(error, io, (failure) => describeFailure(failure, environment.env));
  } finally {
    await receiver?.close();
  }
}

async function runSteps(context: Parameters<typeof smokeSteps>[0]): Promise<SmokeReport> {
  const results: SmokeResult[] = [];
  let failed = false;
  for (const step of smokeSteps(context)) {
    if (failed && !step.cleanUp) {
      results.push({ step: step.name, outcome: 'skipped', detail: 'a step before it failed' });
      continue;
    }
    try {
      results.push({ step: step.name, outcome: 'pass', detail: (await step.run()) ?? '' });
    } catch (error) {
      failed = true;
      results.push({ step: step.name, outcome: 'fail', detail: firstLineOf(error) });
    }
  }
  return { passed: !failed, results, made: context.subjects };
}

/** The admin CLI's commands, in this process, with their JSON as the answer and their one-line failure as the error. */
function adminInProcess(environment: CliEnvironment): AdminCommand {
  return async <Answer>(argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(
      [...argv, '--json'],
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      environment,
    );
    if (code !== EXIT_CODE.ok) throw new CliError(`admin ${argv.slice(0, 2).join(' ')}: ${err.at(-1) ?? code}`, code);
    return JSON.parse(out.join('\n')) as Answer;
  };
}

function reportLines(report: SmokeReport, baseUrl: string): string[] {
  const failures = report.results.filter((result) => result.outcome === 'fail').length;
  return [
    `Smoke check of ${baseUrl} (tenant ${report.made.tenantSlug})`,
    ...formatTable(
      ['STEP', 'RESULT', 'DETAIL'],
      report.results.map((result) => [result.step, result.outcome.toUpperCase(), result.detail]),
    ),
    report.passed ? 'PASSED: every step, and the clean-up' : `FAILED: ${failures} step(s); see DETAIL`,
  ];
}
