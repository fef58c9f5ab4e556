/**
 * Signing out from anywhere in the app: the server ends the session and its cookie, then the page starts
 * again from the sign-in page (nothing of the session's pages stays in memory).
 */
import { ACCESS_PATHS } from '@/contract/access';
import { callOwnApi } from '@/lib/api-client';

export async function signOut(options: { everywhere?: boolean } = {}): Promise<void> {
  try {
    await callOwnApi(options.everywhere ? ACCESS_PATHS.signOutEverywhere : ACCESS_PATHS.signOut, { method: 'POST' });
  } finally {
    window.location.assign('/');
  }
}
