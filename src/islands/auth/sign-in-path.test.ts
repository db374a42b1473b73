/** A signed-out back-office page sends the browser to sign in and back, never anywhere else. */
import { describe, expect, it } from 'vitest';
import { afterSignInPath, signInPath } from './auth-client';

describe('the way back after signing in', () => {
  it('sends a signed-out back-office page to /auth with the way back', () => {
    expect(signInPath('/admin/inhalte')).toBe('/auth?next=%2Fadmin%2Finhalte');
    expect(signInPath('/admin')).toBe('/auth');
    expect(signInPath('/')).toBe('/auth');
  });

  it.each([
    ['?next=%2Fadmin%2Finhalte', '/admin/inhalte'],
    ['?next=/admin/users', '/admin/users'],
    ['', '/admin'],
    ['?next=https://evil.example/admin', '/admin'],
    ['?next=//evil.example/admin', '/admin'],
    ['?next=/admin//evil.example', '/admin'],
    ['?next=/\\evil.example', '/admin'],
    ['?next=/administrator', '/admin'],
    ['?next=javascript:alert(1)', '/admin'],
  ])('after sign-in %s leads to %s', (search, path) => {
    expect(afterSignInPath(search)).toBe(path);
  });
});
