/**
 * The sign-in page's single sign-on: a plain link to the server's start address (which redirects to the
 * identity provider, and from there back to the app signed in), and the words for why a single sign-on
 * sent the person back with `?sign-in-error=<code>` instead.
 */
import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useState } from 'react';
import { isSsoErrorCode, SIGN_IN_ERROR_PARAM, SSO_ERRORS, SSO_START_PATH } from '@/contract/single-sign-on';

export function SingleSignOnButton({ name }: { name: string }) {
  return (
    <Stack gap="md">
      <Divider label="or" labelPosition="center" />
      <Button component="a" href={SSO_START_PATH} variant="default" fullWidth>
        Sign in with {name}
      </Button>
    </Stack>
  );
}

/** Why the last single sign-on failed, read once from the address (and taken out of it, so a reload does not repeat it). */
export function SingleSignOnProblem() {
  const [code] = useState(() => {
    const url = new URL(window.location.href);
    const value = url.searchParams.get(SIGN_IN_ERROR_PARAM);
    if (value === null) return null;
    url.searchParams.delete(SIGN_IN_ERROR_PARAM);
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    return value;
  });
  if (code === null) return null;
  return (
    <Alert color="red" role="alert" title="Not signed in">
      {isSsoErrorCode(code) ? SSO_ERRORS[code] : 'Single sign-on did not sign you in. Try again, or sign in with your password.'}
    </Alert>
  );
}
