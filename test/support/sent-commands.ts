import { db } from '#lib/platform/table/client';

/** The commands sent to DynamoDB while `act` runs, counted at the client's first step. */
export async function commandsSentDuring(act: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  try {
    await act();
  } finally {
    db.middlewareStack.remove('countCommands');
  }
  return sent;
}
