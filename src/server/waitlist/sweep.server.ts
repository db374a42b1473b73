/**
 * When the waitlist is asked (docs/decisions/032-waitlist.md): right after
 * a request that freed a seat has answered (its change committed), and
 * every minute from the scheduled job, with this process's database, email
 * and keys. The purge of entries whose range or booking day has passed runs
 * with the job.
 */
import { getDb } from '../database.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { isProductionEnv, readEnv, variables } from '../env.server';
import { runDelivery } from '../email/delivery.server';
import { purgeWaitlist } from './purge.server';

/**
 * Outside production WAITLIST_OFFERS_ANY_HOUR=true lifts the offer hours:
 * the browser tests run at any time of day. Production ignores it.
 */
function offersAnyHour(): boolean {
  return !isProductionEnv() && variables().WAITLIST_OFFERS_ANY_HOUR === 'true';
}

/** The sweep with this process's settings (for one type, or all). */
export async function runOfferSweep(options: { typeId?: string; now?: Date } = {}): Promise<{ offered: number }> {
  const env = readEnv();
  // The offers' code (free times, the booking rules, the texts) loads with the first sweep that can offer.
  const { offerFreedSeats } = await import('./offers.server');
  return offerFreedSeats(await getDb(), {
    keys: await dataKeyRingIfAny(),
    siteUrl: env.SITE_URL,
    anyHour: offersAnyHour(),
    ...options,
  });
}

/** After the answer of a request that freed a seat of `typeId` (every type when absent): offer it, and send the offers. */
export async function offerFreedNow(typeId?: string): Promise<void> {
  const { offered } = await runOfferSweep(typeId ? { typeId } : {});
  if (offered) await runDelivery({ maxBatches: 1 });
}

/** The job's part: purge, then offer whatever is free. */
export async function runWaitlistJob(now: Date = new Date()): Promise<{ purged: { entries: number; offers: number }; offered: number }> {
  const { entries, offers, waiting } = await purgeWaitlist(await getDb(), now);
  // An empty waitlist (most minutes of a small practice) has nothing to offer: no sweep then.
  const { offered } = waiting ? await runOfferSweep({ now }) : { offered: 0 };
  if (entries || offers || offered) {
    console.info(`waitlist: ${offered} offers sent, ${entries} entries and ${offers} offers purged`);
  }
  return { purged: { entries, offers }, offered };
}
