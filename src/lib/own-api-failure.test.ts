import { describe, expect, it } from 'vitest';
import { apiErrors } from './api-error';
import { explainOwnApiFailure, isNotSignedIn, kindOfOwnApiFailure } from './own-api-failure';

const answered = (status: number, message = '', retryAfter: string | null = null) =>
  apiErrors.answered(status, null, message ? { message } : null, retryAfter);

describe('what a failed call to our own server means', () => {
  it.each([
    ['no answer', apiErrors.noAnswer(), 'unreachable'],
    ['no answer in time', apiErrors.noAnswerInTime(30), 'unreachable'],
    ['an answer cut off', apiErrors.cutOff(200, null), 'unreachable'],
    ['an answer that is not JSON', apiErrors.notJson(200, null), 'unreachable'],
    ['500', answered(500, 'Broken.'), 'unreachable'],
    ['our 502 (nothing behind it answered)', answered(502, 'Bad gateway.'), 'unreachable'],
    ['401', answered(401, 'Sign in.'), 'not-signed-in'],
    ['429', answered(429, 'Slow down.'), 'throttled'],
    ['400', answered(400, 'Bad body.'), 'refused'],
    ['403', answered(403, 'Not yours.'), 'refused'],
    ['409', answered(409, 'Changed since.'), 'refused'],
    ['a fault of the page', new TypeError('oops'), 'unexpected'],
  ] as const)('%s: %s', (_what, error, kind) => {
    expect(kindOfOwnApiFailure(error)).toBe(kind);
  });

  it('knows a platform’s 401 from our server’s: only ours means nobody is signed in', () => {
    expect(isNotSignedIn(answered(401))).toBe(true);
    expect(isNotSignedIn(apiErrors.answered(401, 401, { message: 'Bad key.' }))).toBe(false);
  });

  it('says the server’s own words where it sent some, else what happened', () => {
    expect(explainOwnApiFailure(answered(409, 'Someone changed it since.')).text).toBe('Someone changed it since.');
    expect(explainOwnApiFailure(answered(404)).text).toBe('site-admin’s server answered 404 Not Found.');
    expect(explainOwnApiFailure(apiErrors.noAnswer()).text).toMatch(/^No answer came from site-admin’s server/);
  });

  it('takes the task’s words for a refusal that came without the server’s, and for too many attempts', () => {
    const words = { refused: 'Those do not match.', throttled: 'Too many failed sign-ins.' };
    expect(explainOwnApiFailure(answered(401), words).text).toBe('Those do not match.');
    expect(explainOwnApiFailure(answered(401, 'No such person.'), words).text).toBe('No such person.');
    expect(explainOwnApiFailure(answered(429, '', '30'), words).text).toBe('Too many failed sign-ins. Wait 30 seconds, then try again.');
    expect(explainOwnApiFailure(answered(429)).text).toBe('Too many attempts. Wait a moment, then try again.');
  });
});
