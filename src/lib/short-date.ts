/** "24.11.2026" from "2026-11-24": the practice's short date, by the digits (no date library). */
export function formatShortDate(iso: string): string {
  const [year, month, day] = iso.split('-') as [string, string, string];
  return `${day}.${month}.${year}`;
}
