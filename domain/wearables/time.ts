/** Local-day arithmetic for IANA time zones (no library: Intl gives each instant's offset). */

/** The offset of `timeZone` at `at`, in seconds east of UTC. */
export function offsetSeconds(timeZone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
  return match[1] === '-' ? -seconds : seconds;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The instant local midnight of `day` (YYYY-MM-DD) happens in `timeZone`. */
export function localMidnight(day: string, timeZone: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  const offset = offsetSeconds(timeZone, new Date(utcMidnight + 12 * 3600_000));
  return new Date(utcMidnight - offset * 1000);
}

/** The local calendar day of `at` in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  return new Date(at.getTime() + offsetSeconds(timeZone, at) * 1000).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Every day from `from` to `to` inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
