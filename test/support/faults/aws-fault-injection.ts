/**
 * Faults in the service's own AWS clients (DynamoDB, S3): middleware that counts calls (sends)
 * and attempts, and fails an attempt before or after it reaches the service, or sends it to a
 * socket that never answers. It sits inside the SDK's retry loop, so the SDK retries an injected
 * failure exactly as it would retry a real one.
 */
import { type AddressInfo, type Server as NetServer, type Socket, createServer as createNetServer } from 'node:net';
import { ProvisionedThroughputExceededException, ThrottlingException } from '@aws-sdk/client-dynamodb';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { HttpRequest } from '@smithy/core/protocols';
import { mediaS3 } from '#lib/platform/media-bucket';
import { db } from '#lib/platform/table/client';
import {
  type AwsFault,
  type AwsFaultAction,
  type AwsService,
  type SendRecord,
  lab,
  nextFaultNumber,
} from './fault-lab';

const faultMetadata = (status: number) => ({
  httpStatusCode: status,
  requestId: `FAULT${nextFaultNumber()}`,
  attempts: 1,
  totalRetryDelay: 0,
});

/** The errors the services and the HTTP handler raise, as the SDK builds them. */
export const failures = {
  provisionedThroughput: () =>
    new ProvisionedThroughputExceededException({
      message: 'The level of configured provisioned throughput for the table was exceeded.',
      $metadata: faultMetadata(400),
    }),
  throttling: () =>
    new ThrottlingException({
      message: 'Rate of requests exceeds the allowed throughput.',
      $metadata: faultMetadata(400),
    }),
  /** What @smithy/node-http-handler throws when a socket stays silent past its timeout. */
  socketTimeout: () =>
    Object.assign(new Error('@smithy/node-http-handler - the request socket timed out after 3000 ms of inactivity.'), {
      name: 'TimeoutError',
    }),
  s3Unavailable: () =>
    new S3ServiceException({
      name: 'ServiceUnavailable',
      $fault: 'server',
      message: 'Please reduce your request rate.',
      $metadata: faultMetadata(503),
    }),
};

/** A fault on the first attempt of every call of the service: the SDK's retry gets past it. */
export const onFirstAttempt =
  (service: AwsService, action: NonNullable<AwsFaultAction>): AwsFault =>
  (attempt) =>
    attempt.service === service && attempt.attempt === 1 ? action : undefined;

/** A fault on every attempt of every call of the service (or of one command of it). */
export const always =
  (service: AwsService, action: NonNullable<AwsFaultAction>, command?: string): AwsFault =>
  (attempt) =>
    attempt.service === service && (command === undefined || attempt.command === command) ? action : undefined;

export interface AwsClientInternals {
  middlewareStack: { add(middleware: unknown, options: Record<string, unknown>): void; remove(name: string): boolean };
  config: {
    maxAttempts(): Promise<number>;
    retryStrategy(): Promise<unknown>;
    requestHandler: { httpHandlerConfigs?(): Record<string, unknown> };
  };
}

/** The service's own clients, the ones its functions use. */
export const clients: Record<AwsService, AwsClientInternals> = {
  DynamoDB: db as unknown as AwsClientInternals,
  S3: mediaS3() as unknown as AwsClientInternals,
};

const SEND = Symbol('faults.send');

// A socket that accepts connections and never answers: a hanging service, at the network level,
// where the HTTP handler's own timeouts (if any were configured) apply.
let blackHole: { server: NetServer; port: number; sockets: Set<Socket> } | undefined;

export async function openBlackHole(): Promise<void> {
  const sockets = new Set<Socket>();
  const holeServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => holeServer.listen(0, '127.0.0.1', () => resolve()));
  blackHole = { server: holeServer, port: (holeServer.address() as AddressInfo).port, sockets };
}

export async function closeBlackHole(): Promise<void> {
  await new Promise((resolve) => blackHole?.server.close(resolve));
}

function blackHoled(request: unknown): HttpRequest {
  const clone = HttpRequest.clone(request as HttpRequest);
  clone.hostname = '127.0.0.1';
  clone.port = blackHole!.port;
  return clone;
}

/** Ends the connections the black hole holds, so the calls waiting on them fail. */
export function releaseBlackHole(): void {
  for (const socket of blackHole?.sockets ?? []) socket.destroy();
  blackHole?.sockets.clear();
}

/** The services come back in the middle of a request: no more faults, and hanging calls released. */
export function restoreServices(): void {
  lab.fault = undefined;
  releaseBlackHole();
}

export function installAwsMiddleware(): void {
  for (const service of ['DynamoDB', 'S3'] as const) {
    const stack = clients[service].middlewareStack;
    stack.add(
      (
        next: (args: { input: Record<string, unknown> }) => Promise<unknown>,
        context: Record<string | symbol, unknown>,
      ) =>
        async (args: { input: Record<string, unknown> }) => {
          if (!lab.recording) return next(args);
          const input =
            service === 'S3' ? `${String(args.input.Bucket)}/${String(args.input.Key)}` : JSON.stringify(args.input);
          const send: SendRecord = { service, command: String(context.commandName), input, attempts: 0 };
          if (service === 'DynamoDB' && /^(TransactWriteItems|PutItem)Command$/.test(send.command)) {
            for (const match of input.matchAll(
              /(T#ten_[0-9a-z]+#G#[A-Za-z0-9_-]+#CODE#[A-Z0-9]{4}|CHECKOUTTOKEN#[0-9a-f]{64})/g,
            )) {
              lab.written.add(match[1]!);
            }
          }
          context[SEND] = { send, index: lab.sends.length };
          lab.sends.push(send);
          lab.inFlight += 1;
          lab.maxInFlight = Math.max(lab.maxInFlight, lab.inFlight);
          try {
            return await next(args);
          } catch (error) {
            send.failedWith = (error as Error).name;
            throw error;
          } finally {
            lab.inFlight -= 1;
          }
        },
      { step: 'initialize', name: 'count-calls' },
    );
    stack.add(
      (next: (args: { request: unknown }) => Promise<unknown>, context: Record<string | symbol, unknown>) =>
        async (args: { request: unknown }) => {
          const tagged = context[SEND] as { send: SendRecord; index: number } | undefined;
          if (!tagged) return next(args);
          tagged.send.attempts += 1;
          const action = lab.fault?.({
            service,
            command: tagged.send.command,
            input: tagged.send.input,
            sendIndex: tagged.index,
            attempt: tagged.send.attempts,
          });
          if (action && 'before' in action) throw action.before();
          if (action && 'blackHole' in action) return next({ ...args, request: blackHoled(args.request) });
          const result = await next(args);
          if (action && 'after' in action) throw action.after();
          return result;
        },
      // Inside the SDK's retry loop (finalizeRequest, priority high), so every attempt passes here.
      { step: 'finalizeRequest', priority: 'low', name: 'inject-fault' },
    );
  }
}

export function removeAwsMiddleware(): void {
  for (const service of ['DynamoDB', 'S3'] as const) {
    clients[service].middlewareStack.remove('inject-fault');
    clients[service].middlewareStack.remove('count-calls');
  }
}
