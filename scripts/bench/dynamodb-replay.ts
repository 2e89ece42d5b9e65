import { randomUUID } from 'node:crypto';
import * as DocumentCommands from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RecordedWork } from './round-trip-counter';

type DocumentCommand = new (input: never) => Parameters<DynamoDBDocumentClient['send']>[0];

/** Low-level names as the middleware sees them, e.g. `GetItemCommand`, to document commands. */
const DOCUMENT_COMMAND_NAMES: Record<string, keyof typeof DocumentCommands> = {
  GetItemCommand: 'GetCommand',
  PutItemCommand: 'PutCommand',
  UpdateItemCommand: 'UpdateCommand',
  DeleteItemCommand: 'DeleteCommand',
  QueryCommand: 'QueryCommand',
  ScanCommand: 'ScanCommand',
  BatchGetItemCommand: 'BatchGetCommand',
  BatchWriteItemCommand: 'BatchWriteCommand',
  TransactGetItemsCommand: 'TransactGetCommand',
  TransactWriteItemsCommand: 'TransactWriteCommand',
};

/**
 * Sends recorded work again through a document client of its own, wave by wave, the calls
 * of a wave together: the same requests' DynamoDB work without HTTP, middleware or domain
 * code. `rewrite` may change the strings of an input (fresh IDs for a write that must not
 * collide). A refused condition is DynamoDB work done, like the API's own refusals.
 */
export async function replayWork(
  client: DynamoDBDocumentClient,
  work: RecordedWork,
  rewrite?: (text: string) => string,
): Promise<void> {
  for (const wave of work) {
    await Promise.all(
      wave.map(async (call) => {
        const Command = DocumentCommands[DOCUMENT_COMMAND_NAMES[call.command]!] as unknown as
          DocumentCommand | undefined;
        if (!Command) throw new Error(`No document command for ${call.command}`);
        try {
          const input = (rewrite ? rewriteStrings(call.input, rewrite) : call.input) as Record<string, unknown>;
          // A transaction's token makes a resend within 10 minutes a no-op: each replay is new work.
          if (input.ClientRequestToken) input.ClientRequestToken = randomUUID();
          await client.send(new Command(input as never));
        } catch (error) {
          if (!isRefusedCondition(error)) throw error;
        }
      }),
    );
  }
}

function isRefusedCondition(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

function rewriteStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) return value.map((element) => rewriteStrings(element, rewrite));
  if (value instanceof Set) return new Set([...value].map((element) => rewriteStrings(element, rewrite)));
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, rewriteStrings(element, rewrite)]));
  }
  return value;
}
