import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './cli-errors';
import type { OptionValues } from './options';

/** How a refused command line is explained: which command, and where its help is. */
export interface CommandLineContext {
  /** The command as the user typed it, e.g. `tenant create` or `upload`. */
  command: string;
  /** The command that prints its usage, e.g. `npm run admin -- tenant create --help`. */
  help: string;
  /** Whether the command takes arguments besides its options (the folder of `photos upload`). */
  allowPositionals?: boolean;
}

/**
 * The options and other arguments of one command, read strictly by util.parseArgs. A command
 * line it refuses is a UsageError of one line that names the option.
 */
export function parseCommandLine(
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
  context: CommandLineContext,
): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options,
      strict: true,
      allowPositionals: context.allowPositionals ?? false,
    });
    return { values: values as OptionValues, positionals };
  } catch (error) {
    throw new UsageError(describeParseError(error as Error & { code?: string }, context));
  }
}

/** util.parseArgs messages span lines and speak of positionals; one line about the option reads better. */
function describeParseError(error: Error & { code?: string }, context: CommandLineContext): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  const option = quoted.split(' ')[0];
  const help = `run "${context.help}"`;
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Unknown option ${option} for "${context.command}"; ${help}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Unexpected argument "${quoted}" for "${context.command}"; options are written --name value`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return error.message.includes('does not take an argument')
        ? `${option} is a flag and takes no value`
        : `${option} needs a value (write ${option}=-value for a value starting with a dash)`;
    default:
      return `${error.message.split('\n')[0]}; ${help}`;
  }
}
