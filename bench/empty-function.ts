/**
 * The cold-start benchmark's yardstick (bench/cold-start.ts): a function
 * that imports nothing and answers at once, bundled and started exactly as
 * the site's functions are. It lives outside netlify/functions, so it is
 * never deployed.
 */
export default () => new Response('ok', { headers: { 'content-type': 'text/plain' } });

export const config = { path: '/api/__cold-start-empty' };
