import { health } from '../../src/server/actions/health.server';

export default health;

export const config = { path: '/api/health' };
