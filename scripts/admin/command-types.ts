/**
 * The shapes the command catalogue and the command modules share. A module of its own, so
 * that the `*-commands.ts` files, which the catalogue imports lazily, import nothing back from
 * the catalogue: no import cycle, type-only ones included.
 */
import type { OptionValues } from '../cli-kit/options';
import type { PrintableResult } from '../cli-kit/output';

/** What a handler returns: `data` for --json, `lines` otherwise (run-admin.ts prints one of them). */
export type CommandResult = PrintableResult;

export type CommandHandler = (values: OptionValues) => Promise<CommandResult>;
export type CommandHandlers = Record<string, CommandHandler>;

export type OptionSpec = { type: 'string' } | { type: 'boolean' };

export interface CommandSpec {
  usage: string;
  options: Record<string, OptionSpec>;
  /** Variables the command needs besides TABLE_NAME (MEDIA_BUCKET for those that touch media); the others run without them. */
  environment?: readonly string[];
}

export interface ResourceSpec {
  summary: string;
  commands: Record<string, CommandSpec>;
  loadHandlers(): Promise<CommandHandlers>;
}
