/**
 * Any /api path no other function serves, `/api` itself included (Netlify's
 * `/api/*` does not match it): 404 problem+json, never the HTML 404 page. Netlify matches function paths without a documented
 * precedence, so every other function's path is excluded here (a unit test,
 * tests/unit/api-not-found.test.ts, keeps this list equal to theirs; Netlify
 * reads it from the source, so it must stay a literal).
 */
import { notFound } from '../../src/server/actions/api-not-found.server';

export default notFound;

export const config = {
  path: ['/api', '/api/*'],
  excludedPath: [
    '/api/admin/appointment-types',
    '/api/admin/appointment-types/:id',
    '/api/admin/audit',
    '/api/admin/availability',
    '/api/admin/blocked-dates',
    '/api/admin/blocked-dates/:id',
    '/api/admin/content',
    '/api/admin/content/status',
    '/api/admin/booked-slots',
    '/api/admin/booked-slots/:id',
    '/api/admin/booked-slots/:id/attendance',
    '/api/admin/booked-slots/:id/cancel',
    '/api/admin/booked-slots/:id/informed',
    '/api/admin/booked-slots/:id/move',
    '/api/admin/inventory',
    '/api/admin/inventory/:id',
    '/api/admin/patients',
    '/api/admin/settings',
    '/api/admin/stats',
    '/api/admin/time-slots',
    '/api/admin/time-slots/:id',
    '/api/admin/users',
    '/api/admin/users/:id',
    '/api/admin/users/:id/invite',
    '/api/admin/users/:id/second-factor',
    '/api/admin/waitlist',
    '/api/admin/waitlist/counts',
    '/api/appointment-types',
    '/api/auth/forgot',
    '/api/auth/login',
    '/api/auth/logout',
    '/api/auth/password',
    '/api/auth/refresh',
    '/api/auth/reset',
    '/api/auth/second-factor',
    '/api/auth/session',
    '/api/auth/setup',
    '/api/auth/status',
    '/api/auth/totp',
    '/api/auth/totp/confirm',
    '/api/auth/totp/setup',
    '/api/availability',
    '/api/bookings',
    '/api/bookings/cancel',
    '/api/bookings/reschedule',
    '/api/contact',
    '/api/waitlist',
    '/api/waitlist/leave',
    '/api/waitlist/offer',
    '/api/webhooks/postmark',
  ],
};
