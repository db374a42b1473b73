/**
 * The patients of the rush benchmark (bench/rush.ts): when each arrives,
 * and what each does, as the booking wizard does it.
 *
 * A patient loads the month's availability (through the CDN stand-in),
 * picks a free time (a quarter of them the morning's first times on
 * purpose: everyone wants 08:00 on the first day), books, and on a 409 picks
 * again from the times the refusal answered (the wizard shows those over the
 * month it loads again, docs/decisions/044), up to 3 more times; then joins
 * the waitlist for the vaccination days.
 */
import { addDaysToDate } from '../src/lib/berlin-time';
import type { OriginCall, RushStack } from './rush-stack';

export interface Timed {
  ms: number;
  status: number;
}

export interface RushLog {
  /** Availability as patients saw it (a CDN copy or the function), and the function's own answers. */
  availabilitySeen: Timed[];
  availabilityOrigin: Timed[];
  bookings: Timed[];
  /** Real milliseconds from the start of each 201. */
  bookedAt: number[];
  conflicts: number;
  retries: number;
  waitlistJoins: number;
  /** Patients who found nothing free on their first look. */
  foundNothing: number;
  serverErrors: number;
  queuedMs: number[];
}

/** A deterministic random stream (mulberry32), so two runs ask the same. */
export function randomStream(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Arrival of each patient in seconds of the morning: 70 % within the first 2 minutes, the rest by minute 10. */
export function arrivals(patients: number, random: () => number): number[] {
  const early = Math.round(patients * 0.7);
  return Array.from({ length: patients }, (_, i) => (i < early ? random() * 120 : 120 + random() * 480)).sort((a, b) => a - b);
}

interface Context {
  stack: RushStack;
  typeId: string;
  days: string[];
  today: string;
  maxAdvanceDays: number;
  log: RushLog;
  random: () => number;
  started: number;
}

/** The wizard's month requests for the months the vaccination days fall in. */
function monthRanges(ctx: Context): Array<[string, string]> {
  const last = addDaysToDate(ctx.today, ctx.maxAdvanceDays);
  const months = [...new Set(ctx.days.map((d) => d.slice(0, 7)))];
  return months.map((m) => {
    const [y, mo] = m.split('-').map(Number) as [number, number];
    const end = new Date(Date.UTC(y, mo, 0)).toISOString().slice(0, 10);
    const first = `${m}-01`;
    return [first < ctx.today ? ctx.today : first, end > last ? last : end];
  });
}

function record(list: Timed[], call: OriginCall, log: RushLog): void {
  list.push({ ms: call.ms, status: call.status });
  log.queuedMs.push(call.queuedMs);
  if (call.status >= 500) log.serverErrors++;
}

async function loadFree(ctx: Context): Promise<Map<string, string[]>> {
  const free = new Map<string, string[]>();
  for (const [from, to] of monthRanges(ctx)) {
    const url = new URL(`http://rush/api/availability?type=${ctx.typeId}&from=${from}&to=${to}`);
    const before = ctx.stack.cdn.counts.origin;
    const started = performance.now();
    const answer = await ctx.stack.cdn.get(url);
    const seen = { ms: performance.now() - started, status: answer.status };
    ctx.log.availabilitySeen.push(seen);
    if (!answer.hit && ctx.stack.cdn.counts.origin > before) ctx.log.availabilityOrigin.push(seen);
    if (answer.status >= 500) ctx.log.serverErrors++;
    if (answer.status !== 200) continue;
    for (const day of (JSON.parse(answer.body) as { days: Array<{ date: string; times: string[] }> }).days) free.set(day.date, day.times);
  }
  return free;
}

function pick(ctx: Context, free: Map<string, string[]>, popular: boolean): { date: string; time: string } | null {
  const all = ctx.days.flatMap((date) => (free.get(date) ?? []).map((time) => ({ date, time })));
  if (all.length === 0) return null;
  const pool = popular ? all.slice(0, 4) : all;
  return pool[Math.floor(ctx.random() * pool.length)]!;
}

function patientBody(i: number, ctx: Context, slot: { date: string; time: string }) {
  return {
    appointment_type_id: ctx.typeId,
    appointment_date: slot.date,
    appointment_time: slot.time,
    first_name: 'Erika',
    last_name: `Impfling ${i}`,
    birth_date: '1958-03-14',
    phone: '+49 211 5550123',
    email: `patient-${i}@example.org`,
    consent: true,
    language: i % 5 === 0 ? 'en' : 'de',
  };
}

/** One patient's morning. */
export async function runPatient(i: number, ctx: Context): Promise<void> {
  const client = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const popular = ctx.random() < 0.25;
  let free = await loadFree(ctx);
  for (let attempt = 0; attempt <= 3; attempt++) {
    const slot = pick(ctx, free, popular && attempt === 0);
    if (!slot) {
      if (attempt === 0) ctx.log.foundNothing++;
      break;
    }
    if (attempt > 0) ctx.log.retries++;
    const call = await ctx.stack.origin(new URL('http://rush/api/bookings'), { method: 'POST', body: JSON.stringify(patientBody(i, ctx, slot)), client });
    record(ctx.log.bookings, call, ctx.log);
    if (call.status === 201) {
      ctx.log.bookedAt.push(performance.now() - ctx.started);
      return;
    }
    if (call.status !== 409) continue;
    ctx.log.conflicts++;
    // The wizard loads the month again and lays the refusal's current times over it.
    const refusal = JSON.parse(call.body) as { availability?: { from: string; to: string; days: Array<{ date: string; times: string[] }> } };
    free = await loadFree(ctx);
    if (refusal.availability) {
      const { from, to, days } = refusal.availability;
      for (const date of [...free.keys()]) if (date >= from && date <= to) free.delete(date);
      for (const day of days) free.set(day.date, day.times);
    }
  }
  const wish = { from: ctx.days[0]!, to: ctx.days.at(-1)! };
  const { appointment_date: _d, appointment_time: _t, ...person } = patientBody(i, ctx, { date: '', time: '' });
  const join = await ctx.stack.origin(new URL('http://rush/api/waitlist'), { method: 'POST', body: JSON.stringify({ ...person, ...wish }), client });
  if (join.status === 201) ctx.log.waitlistJoins++;
  else if (join.status >= 500) ctx.log.serverErrors++;
}

export function emptyLog(): RushLog {
  return { availabilitySeen: [], availabilityOrigin: [], bookings: [], bookedAt: [], conflicts: 0, retries: 0, waitlistJoins: 0, foundNothing: 0, serverErrors: 0, queuedMs: [] };
}

export type { Context as PatientContext };
