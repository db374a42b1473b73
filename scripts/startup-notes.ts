/**
 * What `npm start` says once it listens, beside its address: where the
 * emails go when no mail service is configured (the outbox folder, one
 * .eml per message), and, while the site has no staff account yet, how to
 * create the first admin (/admin-setup and the setup word; outside
 * production an unset ADMIN_SETUP_SECRET means the default word, which is
 * shown; a word that was set is never printed).
 */
export interface StartupFacts {
  /** The origin the server listens on. */
  url: string;
  /** The outbox folder when emails go there; null with a mail service. */
  outboxDir: string | null;
  adminExists: boolean;
  /** Whether ADMIN_SETUP_SECRET is set (its value is never shown). */
  setupSecretSet: boolean;
  /** The word that applies when ADMIN_SETUP_SECRET is unset (development only). */
  defaultSetupSecret: string;
}

export function startupNotes(facts: StartupFacts): string[] {
  const notes: string[] = [];
  if (facts.outboxDir) notes.push(`emails: no mail service configured, each email is written to ${facts.outboxDir} (one .eml file per message)`);
  if (!facts.adminExists) {
    const word = facts.setupSecretSet ? 'the word in ADMIN_SETUP_SECRET' : `the setup word "${facts.defaultSetupSecret}" (ADMIN_SETUP_SECRET unset)`;
    notes.push(`first admin: no staff account yet; create one at ${facts.url}/admin-setup with ${word}, then sign in at ${facts.url}/auth`);
  }
  return notes;
}
