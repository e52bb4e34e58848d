import { expect } from 'vitest';
import { AiteError } from '../../../src/sdk/index.js';

/** The AiteError a call fails with (the test fails if it does not). */
export async function failure(promise: Promise<unknown>): Promise<AiteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected the call to fail').toBeInstanceOf(AiteError);
  return error as AiteError;
}
