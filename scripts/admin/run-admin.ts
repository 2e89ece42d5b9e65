import { EXIT_CODE, UsageError, describeFailure, reportFailure } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import type { CliEnvironment } from '../cli-kit/local-servers';
import { optionalText } from '../cli-kit/options';
import { type CliIo, printLines, printResult } from '../cli-kit/output';
import { requireEnvironment, useLocalTable } from '../cli-kit/table-environment';
import { COMMAND_CATALOG, COMMON_OPTIONS, usageLines } from './command-catalog';
import type { CommandSpec, ResourceSpec } from './command-types';

const HELP_WORDS = ['help', '--help', '-h'];

/**
 * Runs one admin command, e.g. `['tenant', 'create', '--slug', 'acme', ...]`, and returns
 * its exit code. Failures are printed as one line on `io.err`, never as a stack trace. Without
 * TABLE_NAME in `environment.env`, the table of the running `npm start` is filled in there
 * (scripts/cli-kit/table-environment.ts); the CLI passes process.env, which the table client reads.
 */
export async function runAdmin(
  argv: readonly string[],
  io: CliIo,
  environment: CliEnvironment = { env: process.env, workingDirectory: process.cwd() },
): Promise<number> {
  try {
    const [resourceName, commandName, ...rest] = argv;
    if (resourceName === undefined)
      throw new UsageError(`No command given; run "npm run admin -- help" for the commands`);
    if (HELP_WORDS.includes(resourceName)) {
      printLines(io, usageLines(commandName !== undefined && COMMAND_CATALOG[commandName] ? commandName : undefined));
      return EXIT_CODE.ok;
    }
    const resource = findResource(resourceName);
    if (commandName !== undefined && HELP_WORDS.includes(commandName)) {
      printLines(io, usageLines(resourceName));
      return EXIT_CODE.ok;
    }
    const command = findCommand(resourceName, resource, commandName);
    const label = `${resourceName} ${commandName}`;
    const { values } = parseCommandLine(
      rest,
      { ...command.options, ...COMMON_OPTIONS },
      { command: label, help: `npm run admin -- ${label} --help` },
    );
    if (values.help === true) {
      io.out(`Usage: npm run admin -- ${command.usage}`);
      return EXIT_CODE.ok;
    }
    const note = useLocalTable(environment, optionalText(values, 'data'));
    if (note) io.err(note);
    // Checked before the handlers load: lib/platform/ reads these variables on import.
    requireEnvironment(environment.env, ['TABLE_NAME', ...(command.environment ?? [])]);
    const handler = (await resource.loadHandlers())[commandName!];
    if (!handler) throw new Error(`No handler for "${label}"`);
    printResult(io, await handler(values), values.json === true);
    return EXIT_CODE.ok;
  } catch (error) {
    return reportFailure(error, io, (failure) => describeFailure(failure, environment.env));
  }
}

function findResource(name: string): ResourceSpec {
  const resource = COMMAND_CATALOG[name];
  if (!resource) {
    throw new UsageError(`Unknown command "${name}": use one of ${Object.keys(COMMAND_CATALOG).join(', ')}, or help`);
  }
  return resource;
}

function findCommand(resourceName: string, resource: ResourceSpec, commandName: string | undefined): CommandSpec {
  const known = Object.keys(resource.commands).join(', ');
  if (commandName === undefined) throw new UsageError(`"${resourceName}" needs a command: ${known}`);
  const command = resource.commands[commandName];
  if (!command) throw new UsageError(`Unknown command "${resourceName} ${commandName}": use one of ${known}`);
  return command;
}
