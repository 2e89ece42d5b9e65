import { DomainError } from '#lib/platform/domain-error';

/** The refusal `act` throws; fails the test when it throws nothing or something else. */
export function refusalOf(act: () => unknown): DomainError {
  try {
    act();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('Expected a DomainError, but nothing was thrown');
}
