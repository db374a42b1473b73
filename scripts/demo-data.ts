/**
 * Demo data for a fresh local site: consultation types with Mon–Fri
 * 08:20–13:40 windows and a small consumables inventory. It never touches a
 * database that already holds practice data.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { appointmentTimeSlots, appointmentTypes, inventoryItems } from '../db/schema';
import { addDaysToDate, berlinToday } from '../src/lib/berlin-time';

const DEMO_TYPES = [
  {
    name: 'Akutsprechstunde',
    nameEn: 'Acute consultation',
    description: 'Für akute Beschwerden wie Infekte, Schmerzen oder Fieber – nur für den heutigen Tag buchbar.',
    descriptionEn: 'For acute complaints such as infections, pain or fever – bookable for today only.',
    maxAdvanceDays: 0,
    slotDurationMinutes: 10,
    maxSlotsPerTime: 2,
    priceCents: null,
  },
  {
    name: 'Check-up',
    nameEn: 'Check-up',
    description: 'Gesundheitsuntersuchung mit Anamnese, körperlicher Untersuchung und Laborwerten.',
    descriptionEn: 'Health check with medical history, physical examination and lab values.',
    maxAdvanceDays: 28,
    slotDurationMinutes: 30,
    maxSlotsPerTime: 1,
    priceCents: null,
  },
  {
    name: 'Impfung',
    nameEn: 'Vaccination',
    description: 'Standard- und Reiseimpfungen (außer Gelbfieber), inklusive Grippeschutzimpfung.',
    descriptionEn: 'Routine and travel vaccinations (except yellow fever), including the flu vaccination.',
    maxAdvanceDays: 21,
    slotDurationMinutes: 10,
    maxSlotsPerTime: 2,
    priceCents: null,
  },
  {
    name: 'Reisemedizinische Beratung',
    nameEn: 'Travel medicine advice',
    description: 'Individuelle Beratung zu Impfungen und Gesundheit vor Ihrer Reise (Selbstzahlerleistung).',
    descriptionEn: 'Personal advice on vaccinations and health before your journey (private service).',
    maxAdvanceDays: 28,
    slotDurationMinutes: 20,
    maxSlotsPerTime: 1,
    priceCents: 3500,
  },
] as const;

const WEEKDAYS = [1, 2, 3, 4, 5];

/** Seeds demo data into an empty database. Returns whether it did. */
export async function seedDemoData(db: Database, now: Date = new Date()): Promise<boolean> {
  const today = berlinToday(now);
  return db.transaction(async (tx) => {
    // Serialise concurrent seeders; the check below then sees the winner's rows.
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    const result = await tx.execute(sql`
      select (select count(*) from appointment_types)
           + (select count(*) from appointment_time_slots)
           + (select count(*) from blocked_dates)
           + (select count(*) from booked_slots)
           + (select count(*) from inventory_items)
           + (select count(*) from users) as n`);
    const rows = (result as unknown as { rows: Array<{ n: number | string }> }).rows;
    if (Number(rows[0]?.n ?? 0) > 0) return false;

    const types = await tx.insert(appointmentTypes).values([...DEMO_TYPES]).returning({ id: appointmentTypes.id });
    await tx.insert(appointmentTimeSlots).values(
      types.flatMap(({ id }) =>
        WEEKDAYS.map((dayOfWeek) => ({ appointmentTypeId: id, dayOfWeek, startTime: '08:20', endTime: '13:40' })),
      ),
    );
    await tx.insert(inventoryItems).values([
      { name: 'Einmalhandschuhe Nitril M', articleNumber: 'HS-NIT-M', supplier: 'Medi-Bedarf GmbH', currentStock: 12, minimumStock: 5, lastInventoryCheck: today },
      { name: 'Spritzen 2 ml', articleNumber: 'SP-002', supplier: 'Medi-Bedarf GmbH', currentStock: 40, minimumStock: 50, isOrdered: true, lastInventoryCheck: today },
      { name: 'Kanülen 23G', articleNumber: 'KN-23G', supplier: 'Medi-Bedarf GmbH', currentStock: 30, minimumStock: 30, lastInventoryCheck: today },
      { name: 'Influenza-Impfstoff 2026/27', supplier: 'Apotheke am Markt', expiryDate: addDaysToDate(today, 20), currentStock: 25, minimumStock: 10, notes: 'Kühlschrank 2–8 °C' },
      { name: 'Blutentnahmeröhrchen EDTA', articleNumber: 'BE-EDTA', supplier: 'Laborbedarf Rhein', expiryDate: addDaysToDate(today, 180), currentStock: 200, minimumStock: 100 },
      { name: 'EKG-Elektroden', articleNumber: 'EKG-50', supplier: 'Kardio Supply', currentStock: 3, minimumStock: 10, notes: 'Packungen à 50 Stück' },
      { name: 'Händedesinfektion 1 l', supplier: 'Apotheke am Markt', expiryDate: addDaysToDate(today, 400), currentStock: 8, minimumStock: 4 },
    ]);
    return true;
  });
}
