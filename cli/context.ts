import { Command, InvalidArgumentError } from 'commander';
import { resolveSettings, Settings } from './config/settings';
import type { Client } from '../shared/contract/client';
import { apiClient } from './http/api-client';
import { Output } from './output/output';

/** The options every command takes (declared once, on the program). */
export interface GlobalOptions {
  json?: boolean;
  profile?: string;
}

/** What a command's action works with: where to print, and the service (resolved when first asked for). */
export class CommandContext {
  readonly output: Output;
  private resolved: Settings | undefined;

  constructor(readonly options: GlobalOptions) {
    this.output = new Output(Boolean(options.json));
  }

  settings(): Settings {
    this.resolved ??= resolveSettings(this.options.profile);
    return this.resolved;
  }

  client(): Client {
    const { baseUrl, apiKey } = this.settings();
    return apiClient(baseUrl, apiKey);
  }
}

/**
 * A commander action receiving the context, its positional arguments and its own options:
 * action(handler) where handler is (context, ...args, options).
 */
export function action<Args extends unknown[]>(handler: (context: CommandContext, ...args: Args) => Promise<void>) {
  return async (...commanderArgs: unknown[]): Promise<void> => {
    const command = commanderArgs[commanderArgs.length - 1] as Command;
    const args = commanderArgs.slice(0, -1) as Args;
    await handler(new CommandContext(command.optsWithGlobals<GlobalOptions>()), ...args);
  };
}

/** Repeatable options (--tag a --tag b) collect into a list. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** A whole number option within bounds; commander reports the message as a usage error. */
export function integerOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    }
    return number;
  };
}


