import { parseArgs } from 'node:util';
import { AdminError, EXIT_CODE, UsageError } from './admin-errors';
import { COMMAND_CATALOG, COMMON_OPTIONS, usageLines } from './command-catalog';
import type { CommandSpec, ResourceSpec } from './command-types';
import type { OptionValues } from './options';
import { isMissingTable } from '#lib/platform/table/store-errors';

/** Where a command writes: standard output for results, standard error for messages. */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

const HELP_WORDS = ['help', '--help', '-h'];

/**
 * Runs one admin command, e.g. `['tenant', 'create', '--slug', 'acme', ...]`, and returns
 * its exit code. Failures are printed as one line on `io.err`, never as a stack trace.
 */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  try {
    const [resourceName, commandName, ...rest] = argv;
    if (resourceName === undefined) throw new UsageError(`No command given; run "npm run admin -- help" for the commands`);
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
    const values = parseOptions(`${resourceName} ${commandName}`, command, rest);
    if (values.help === true) {
      io.out(`Usage: npm run admin -- ${command.usage}`);
      return EXIT_CODE.ok;
    }
    checkEnvironment();
    const handler = (await resource.loadHandlers())[commandName!];
    if (!handler) throw new Error(`No handler for "${resourceName} ${commandName}"`);
    const result = await handler(values);
    if (values.json === true) io.out(JSON.stringify(result.data, null, 2));
    else printLines(io, result.lines);
    return EXIT_CODE.ok;
  } catch (error) {
    return reportFailure(error, io);
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

function parseOptions(commandLabel: string, command: CommandSpec, args: string[]): OptionValues {
  try {
    return parseArgs({ args, options: { ...command.options, ...COMMON_OPTIONS }, strict: true, allowPositionals: false })
      .values as OptionValues;
  } catch (error) {
    throw new UsageError(describeParseError(commandLabel, error as Error & { code?: string }));
  }
}

/** util.parseArgs messages span lines and speak of positionals; one line about the option reads better. */
function describeParseError(commandLabel: string, error: Error & { code?: string }): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  const option = quoted.split(' ')[0];
  const help = `run "npm run admin -- ${commandLabel} --help"`;
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Unknown option ${option} for "${commandLabel}"; ${help}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Unexpected argument "${quoted}" for "${commandLabel}"; options are written --name value`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return error.message.includes('does not take an argument')
        ? `${option} is a flag and takes no value`
        : `${option} needs a value (write ${option}=-value for a value starting with a dash)`;
    default:
      return `${error.message.split('\n')[0]}; ${help}`;
  }
}

/** lib/platform/table/client.ts throws on import without TABLE_NAME; say so before importing it. */
function checkEnvironment(): void {
  if (!process.env.TABLE_NAME) {
    throw new UsageError(
      'TABLE_NAME is not set: export TABLE_NAME (and AWS_REGION, or DYNAMODB_ENDPOINT for DynamoDB Local), or run `npm start` so .local/local-api.json supplies them',
    );
  }
}

function reportFailure(error: unknown, io: AdminIo): number {
  if (error instanceof AdminError) {
    io.err(error.message);
    return error.exitCode;
  }
  io.err(describeUnexpectedError(error as Error & { code?: string }));
  return EXIT_CODE.failed;
}

/** DynamoDB and network failures, with a hint for the usual causes. */
function describeUnexpectedError(error: Error & { code?: string }): string {
  const firstLine = String(error?.message ?? error).split('\n')[0];
  if (isMissingTable(error)) {
    return `Table "${process.env.TABLE_NAME}" was not found (${firstLine}); check TABLE_NAME, AWS_REGION and DYNAMODB_ENDPOINT`;
  }
  if (error?.code === 'ECONNREFUSED' && process.env.DYNAMODB_ENDPOINT) {
    return `DynamoDB at ${process.env.DYNAMODB_ENDPOINT} refused the connection; is DynamoDB Local (npm start) running?`;
  }
  return `Failed: ${error?.name ?? 'Error'}: ${firstLine}`;
}

function printLines(io: AdminIo, lines: string[]): void {
  for (const line of lines) io.out(line);
}
