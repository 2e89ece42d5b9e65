/**
 * The shapes the command catalogue and the command modules share. A module of its own, so
 * that the `*-commands.ts` files, which the catalogue imports lazily, import nothing back from
 * the catalogue: no import cycle, type-only ones included.
 */
import type { OptionValues } from './options';

/** What a handler returns; run-admin.ts prints one or the other. */
export interface CommandResult {
  /** What `--json` prints. */
  data: unknown;
  /** What is printed otherwise. */
  lines: string[];
}

export type CommandHandler = (values: OptionValues) => Promise<CommandResult>;
export type CommandHandlers = Record<string, CommandHandler>;

export type OptionSpec = { type: 'string' } | { type: 'boolean' };

export interface CommandSpec {
  usage: string;
  options: Record<string, OptionSpec>;
}

export interface ResourceSpec {
  summary: string;
  commands: Record<string, CommandSpec>;
  loadHandlers(): Promise<CommandHandlers>;
}
