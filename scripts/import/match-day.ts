import type { ShootingDay } from '#lib/client/groupshoot-client';

/** How a day column's values name shooting days: --day-by; auto tries ID, then date, then label. */
export type DayMatch = 'auto' | 'id' | 'date' | 'label';
export const DAY_MATCHES: readonly DayMatch[] = ['auto', 'id', 'date', 'label'];

/** Why a day value names no single day of the gallery. */
export type DayProblem = 'shooting_day_not_found' | 'shooting_day_ambiguous';

export type DayVerdict = { day: ShootingDay } | { problem: DayProblem };

/**
 * A date as written in exports: 2027-03-01, 2027-03-01 09:00 or 2027-03-01T09:00 (the time
 * then picks between days on one date), or German 1.3.2027, 01.03.27. Undefined otherwise:
 * 03/01/2027 is March or January depending on who wrote it, so it is not guessed.
 */
export function parseDayDate(value: string): { date: string; time?: string } | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(value);
  if (iso) return { date: `${iso[1]}-${iso[2]}-${iso[3]}`, ...(iso[4] ? { time: `${iso[4]}:${iso[5]}` } : {}) };
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})(?:,?\s+(\d{1,2}):(\d{2}))?$/.exec(value);
  if (!german) return undefined;
  const year = german[3]!.length === 2 ? `20${german[3]}` : german[3]!;
  const date = `${year}-${german[2]!.padStart(2, '0')}-${german[1]!.padStart(2, '0')}`;
  return { date, ...(german[4] ? { time: `${german[4].padStart(2, '0')}:${german[5]}` } : {}) };
}

function single(candidates: ShootingDay[]): DayVerdict {
  if (candidates.length === 1) return { day: candidates[0]! };
  return { problem: candidates.length === 0 ? 'shooting_day_not_found' : 'shooting_day_ambiguous' };
}

function byDate(value: string, days: readonly ShootingDay[]): DayVerdict {
  const parsed = parseDayDate(value);
  if (!parsed) return { problem: 'shooting_day_not_found' };
  const onDate = days.filter((day) => day.date === parsed.date);
  if (onDate.length > 1 && parsed.time) return single(onDate.filter((day) => day.startTime === parsed.time));
  return single(onDate);
}

/**
 * The shooting day a value names. By ID exactly; by date (one day on that date, or the one
 * starting at the value's time); by label ignoring case. Two days that fit are ambiguous, not
 * the first of them.
 */
export function matchShootingDay(value: string, days: readonly ShootingDay[], by: DayMatch): DayVerdict {
  const wanted = value.trim();
  const byId = () => single(days.filter((day) => day.id === wanted));
  const byLabel = () => single(days.filter((day) => day.label.trim().toLowerCase() === wanted.toLowerCase()));
  if (by === 'id') return byId();
  if (by === 'date') return byDate(wanted, days);
  if (by === 'label') return byLabel();
  for (const attempt of [byId, () => byDate(wanted, days), byLabel]) {
    const verdict = attempt();
    if ('day' in verdict || verdict.problem === 'shooting_day_ambiguous') return verdict;
  }
  return { problem: 'shooting_day_not_found' };
}
