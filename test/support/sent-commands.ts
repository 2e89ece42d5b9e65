import { db } from '#lib/platform/table/client';

/** Runs `act` with `observe` awaited before each command sent to DynamoDB, at the client's first step. */
export async function observingCommands(
  act: () => Promise<unknown>,
  observe: (commandName: string, input: unknown) => Promise<void> | void,
): Promise<void> {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      await observe(String(context.commandName), args.input);
      return next(args);
    },
    { step: 'initialize', name: 'observeCommands' },
  );
  try {
    await act();
  } finally {
    db.middlewareStack.remove('observeCommands');
  }
}

/** The commands sent to DynamoDB while `act` runs. */
export async function commandsSentDuring(act: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  await observingCommands(act, (commandName) => {
    sent.push(commandName);
  });
  return sent;
}
