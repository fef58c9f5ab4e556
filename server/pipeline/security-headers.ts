/**
 * The security headers: every answer carries them, our refusals included (a wrong Host's too):
 * no framing, no sniffing, no referrer leaks, scripts only from our own origin.
 */
import type { ServerResponse } from 'node:http';
import type { Step } from './context';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine writes its theme variables into a <style> element at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

const HEADERS = Object.entries(SECURITY_HEADERS);

export function setSecurityHeaders(res: ServerResponse) {
  for (const [name, value] of HEADERS) res.setHeader(name, value);
}

export const addSecurityHeaders: Step = ({ res }, next) => {
  setSecurityHeaders(res);
  next();
};
