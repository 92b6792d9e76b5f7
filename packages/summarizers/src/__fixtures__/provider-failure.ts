import { ProviderError } from '../provider-error.ts';

/** Awaits `promise`, expecting it to reject with a `ProviderError`, and returns that error. */
export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ProviderError.isInstance(error)) {
    throw new Error(
      `expected a ProviderError, got ${error === undefined ? 'success' : String(error)}`,
    );
  }
  return error;
}
