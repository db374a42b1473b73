/** What `npm start` prints beside its address (scripts/startup-notes.ts). */
import { describe, expect, it } from 'vitest';
import { startupNotes } from '../../scripts/startup-notes';

const facts = { url: 'http://localhost:4321', outboxDir: '/srv/praxis/.data/outbox', adminExists: false, setupSecretSet: false, defaultSetupSecret: 'praxis-setup' };

describe('startupNotes', () => {
  it('names the outbox folder and, without an admin, /admin-setup with the default word', () => {
    expect(startupNotes(facts)).toEqual([
      'emails: no mail service configured, each email is written to /srv/praxis/.data/outbox (one .eml file per message)',
      'first admin: no staff account yet; create one at http://localhost:4321/admin-setup with the setup word "praxis-setup" (ADMIN_SETUP_SECRET unset), then sign in at http://localhost:4321/auth',
    ]);
  });

  it('never prints a setup word that was set', () => {
    const [, admin] = startupNotes({ ...facts, setupSecretSet: true });
    expect(admin).toContain('with the word in ADMIN_SETUP_SECRET');
    expect(admin).not.toContain('praxis-setup');
  });

  it('says nothing of either once there is a mail service and an admin', () => {
    expect(startupNotes({ ...facts, outboxDir: null, adminExists: true })).toEqual([]);
  });
});
