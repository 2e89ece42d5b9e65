/**
 * AWS SDK errors as the log privacy test injects them: errors that carry whole items
 * (ConditionalCheckFailedException with its Item, TransactionCanceledException with its
 * reasons' items) and messages that quote the values of a request, all with canaries in them.
 */
import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AwsFault } from './fault-lab';
import type { Fixture } from './galleries';
import { CANARY, PHONE_DIGITS } from './log-watch';
import { keys } from '../table-keys';

const metadata = () => ({ httpStatusCode: 400, requestId: `LOGS${Date.now()}`, attempts: 1, totalRetryDelay: 0 });
const itemOf = (f: Fixture) =>
  marshall({
    pk: keys.person(f.tenantId, f.token, 'per_x').pk,
    name: `Ada ${CANARY}name`,
    email: `ada.${CANARY}mail@example.com`,
    phone: `+49 ${PHONE_DIGITS}`,
    galleryToken: f.token,
  });
export const failedCondition = (f: Fixture) => () =>
  new ConditionalCheckFailedException({
    message: `The conditional request failed ${CANARY}message`,
    $metadata: metadata(),
    Item: itemOf(f),
  });
export const cancelled = (f: Fixture) => () =>
  new TransactionCanceledException({
    message: `Transaction cancelled [None, None, None, ConditionalCheckFailed] ${CANARY}message`,
    $metadata: metadata(),
    // The last action failed: for a check-in, the email's count (email_checkin_limit, a refusal that throws).
    CancellationReasons: [
      { Code: 'None' },
      { Code: 'None' },
      { Code: 'None' },
      { Code: 'ConditionalCheckFailed', Message: `The conditional request failed ${CANARY}message`, Item: itemOf(f) },
    ],
  });
export const invalidParameter = (f: Fixture) => () =>
  new DynamoDBServiceException({
    name: 'ValidationException',
    $fault: 'client',
    message: `One or more parameter values were invalid: ${f.token} ada.${CANARY}mail@example.com`,
    $metadata: metadata(),
  });
export const s3Failure = (f: Fixture) => () =>
  new S3ServiceException({
    name: 'ServiceUnavailable',
    $fault: 'server',
    message: `Please reduce your request rate for selfies/${f.tenantId}/${f.token}`,
    $metadata: { ...metadata(), httpStatusCode: 503 },
  });
/** A fault failing the calls of `command` whose input passes `test`. */
export const when =
  (command: string, test: (input: string) => boolean, error: () => Error): AwsFault =>
  (attempt) =>
    attempt.command === command && test(attempt.input) ? { before: error } : undefined;
