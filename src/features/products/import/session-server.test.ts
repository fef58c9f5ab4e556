import { describe, expect, it } from 'vitest';
import { apiErrors } from '@/lib/api-error';
import type { ImportServer } from './import-session';
import { importServer } from './session-server';

/** Calls that each fail with `error`, or answer when it is null. */
function calls(error: unknown): ImportServer {
  const answer = <T>(value: T) => (error === null ? Promise.resolve(value) : Promise.reject(error));
  return {
    listImports: () => answer([]),
    readImport: () => answer({} as never),
    createImport: () => answer({} as never),
    saveWork: () => answer(2),
    discardImport: () => answer(null),
    claimRun: () => answer({ runner: 'r' }),
    releaseRun: () => answer(null),
    decideProduct: () => answer(null),
    createProduct: () => answer({ id: '7' }),
    updateProduct: () => answer({ id: '7' }),
  };
}

describe('the import session’s calls in the page', () => {
  it('tell the app that nobody is signed in when our server answers 401, and still fail as before', async () => {
    let told = 0;
    const ended = apiErrors.answered(401, null, { message: 'Sign in again.' });
    const server = importServer(() => (told += 1), calls(ended));
    await expect(server.saveWork('i', 1, {} as never)).rejects.toBe(ended);
    await expect(server.createProduct({}, {})).rejects.toBe(ended);
    expect(told).toBe(2);
  });

  it('leave every other failure to the session: a platform’s 401, a refusal, no answer', async () => {
    let told = 0;
    for (const error of [
      apiErrors.answered(401, 401, { message: 'Bad key.' }),
      apiErrors.answered(409, null, null),
      apiErrors.noAnswer(),
    ]) {
      const server = importServer(() => (told += 1), calls(error));
      await expect(server.createProduct({}, {})).rejects.toBe(error);
      await expect(server.claimRun('i', null)).rejects.toBe(error);
    }
    expect(told).toBe(0);
  });

  it('pass answers through unchanged', async () => {
    const server = importServer(() => undefined, calls(null));
    expect(await server.claimRun('i', null)).toEqual({ runner: 'r' });
    expect(await server.createProduct({}, {})).toEqual({ id: '7' });
  });
});
