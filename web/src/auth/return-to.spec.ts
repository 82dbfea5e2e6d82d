import { describe, expect, it } from '@jest/globals';
import { loginPathFor, safeReturnTo } from './return-to';

const ORIGIN = 'https://slipway.example';
/** What the login page does: the query parameter, decoded once, then checked. */
const fromQuery = (search: string) =>
  safeReturnTo(new URLSearchParams(search).get('returnTo'), ORIGIN);

describe('safeReturnTo: back to a page of this site after login, never elsewhere', () => {
  it.each([
    ['/', '/'],
    ['/deployments', '/deployments'],
    [
      '/deployments/7c9e6679-7425-40de-944b-e07fc1f90ae7',
      '/deployments/7c9e6679-7425-40de-944b-e07fc1f90ae7',
    ],
    ['/deployments?status=failed', '/deployments?status=failed'],
    ['/deployments#logs', '/deployments#logs'],
    ['/a/../deployments', '/deployments'],
  ])('accepts the same-origin path %s', (raw, expected) => {
    expect(safeReturnTo(raw, ORIGIN)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '//evil.example/deployments',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    'https://evil.example',
    'https:evil.example',
    'http:/evil.example',
    'javascript:alert(1)',
    'data:text/html,hi',
    'evil.example',
    ' /deployments',
    '/\t/evil.example',
    '/\n/evil.example',
    '/deployments\\..\\..\\evil',
    '/.//evil.example',
    '/%5Cevil.example',
    '/%2fevil.example',
    '/%2F%2Fevil.example',
    '',
  ])('refuses %j', (raw) => {
    expect(safeReturnTo(raw, ORIGIN)).toBeNull();
  });

  it('refuses an overlong path', () => {
    expect(safeReturnTo(`/${'a'.repeat(3000)}`, ORIGIN)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeReturnTo(null, ORIGIN)).toBeNull();
    expect(safeReturnTo(undefined, ORIGIN)).toBeNull();
    expect(safeReturnTo(['/x'], ORIGIN)).toBeNull();
  });

  it.each([
    ['returnTo=//evil.example', null],
    ['returnTo=%2F%2Fevil.example', null],
    ['returnTo=%2f%2fevil.example', null],
    ['returnTo=%252F%252Fevil.example', null],
    ['returnTo=%2F%5Cevil.example', null],
    ['returnTo=https%3A%2F%2Fevil.example', null],
    ['returnTo=/%09/evil.example', null],
    ['returnTo=%2Fdeployments%3Fstatus%3Dfailed', '/deployments?status=failed'],
  ])('decodes the query once and checks the result: %s', (search, expected) => {
    expect(fromQuery(search)).toBe(expected);
  });

  it('does not return to the pages that lead to a login', () => {
    expect(safeReturnTo('/login?returnTo=/deployments', ORIGIN)).toBeNull();
    expect(safeReturnTo('/reset-password?token=abc', ORIGIN)).toBeNull();
    expect(safeReturnTo('/setup', ORIGIN)).toBeNull();
  });
});

describe('loginPathFor', () => {
  it('names the page to come back to', () => {
    expect(loginPathFor({ pathname: '/deployments/42', search: '?tab=logs' })).toBe(
      '/login?returnTo=%2Fdeployments%2F42%3Ftab%3Dlogs',
    );
    expect(loginPathFor({ pathname: '/', search: '' })).toBe('/login?returnTo=%2F');
  });

  it('leaves a visitor on the auth pages where they are, return path and all', () => {
    expect(loginPathFor({ pathname: '/login', search: '?returnTo=%2Faudit' })).toBeNull();
    expect(loginPathFor({ pathname: '/forgot-password', search: '' })).toBeNull();
  });
});
