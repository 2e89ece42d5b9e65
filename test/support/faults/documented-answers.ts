/**
 * What is documented, and expectations that an answer keeps to it: the documented error table
 * (code → status), the codes the OpenAPI document lists per operation and status, and the error
 * shape (ok false, a message without a stack, requestId = X-Request-Id, never a 500).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOG, type ErrorCode } from '#lib/http/errors';
import { documentedErrorStatuses } from '../documented-errors';
import { type Outcome, answerOf } from './requests';

/** An operation of the OpenAPI document: its method and its path template. */
export interface Operation {
  method: string;
  template: string;
}

const DOCUMENTED_STATUS = documentedErrorStatuses();
const OPENAPI = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { 'x-error-codes'?: string[] }> }>>;
};

/** The error codes docs/openapi.json lists for the operation's answers of this status. */
export function documentedCodes(method: string, template: string, status: number): string[] {
  return OPENAPI.paths[template]?.[method.toLowerCase()]?.responses[String(status)]?.['x-error-codes'] ?? [];
}

/** The answer is this documented error, in the error shape, documented for this operation. */
export function expectDocumentedError(operation: Operation, outcome: Outcome, status: number, code: ErrorCode): void {
  const answer = answerOf(outcome);
  expect({ status: answer.status, error: answer.body?.error }).toEqual({ status, error: code });
  expect(answer.body).toEqual({
    ok: false,
    error: code,
    message: expect.any(String),
    requestId: answer.headers.get('x-request-id'),
  });
  expect(answer.body.message).not.toMatch(/\n\s+at |Error:|Exception/);
  expect(DOCUMENTED_STATUS.get(code)).toBe(status);
  expect(ERROR_CATALOG[code].status).toBe(status);
  expect(documentedCodes(operation.method, operation.template, status)).toContain(code);
}

/** Whatever a fault does, an HTTP answer is never a 500 and always in the documented error shape. */
export function expectNoInternalError(outcome: Outcome): void {
  if (outcome.kind !== 'answer') return;
  const { status, body, headers } = outcome.answer;
  expect({ status, error: body?.error }).not.toEqual(expect.objectContaining({ status: 500 }));
  if (status >= 400) {
    expect(body).toEqual(
      expect.objectContaining({ ok: false, error: expect.any(String), requestId: headers.get('x-request-id') }),
    );
    expect(DOCUMENTED_STATUS.get(body.error)).toBe(status);
  }
}

/** Problems of an answer under a fault: anything but a success or a documented error of the endpoint. */
export function undocumentedAnswer(operation: Operation, outcome: Outcome): string[] {
  if (outcome.kind !== 'answer' || outcome.answer.status < 300) return [];
  const { status, body, headers } = outcome.answer;
  const problems: string[] = [];
  if (status === 500) problems.push(`answered 500 ${body?.error}`);
  if (
    DOCUMENTED_STATUS.get(body?.error) !== status ||
    !documentedCodes(operation.method, operation.template, status).includes(body?.error)
  ) {
    problems.push(
      `answered ${status} ${body?.error}, which the documented error table and the operation do not document`,
    );
  }
  if (body?.requestId !== headers.get('x-request-id')) problems.push('requestId differs from X-Request-Id');
  return problems;
}
