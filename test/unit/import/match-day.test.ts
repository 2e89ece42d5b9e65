import type { ShootingDay } from '#lib/client/groupshoot-client';
import { matchShootingDay, parseDayDate } from '../../../scripts/import/match-day';

const day = (id: string, date: string, label: string, startTime = '09:00'): ShootingDay => ({
  id,
  date,
  label,
  startTime,
  endTime: '17:00',
});
const MONDAY = day('day-mon', '2027-03-01', 'Montag');
const TUESDAY_MORNING = day('day-tue-am', '2027-03-02', 'Dienstag Vormittag', '09:00');
const TUESDAY_AFTERNOON = day('day-tue-pm', '2027-03-02', 'Dienstag Nachmittag', '13:00');
const DAYS = [MONDAY, TUESDAY_MORNING, TUESDAY_AFTERNOON];

describe('parseDayDate', () => {
  it.each([
    ['2027-03-01', { date: '2027-03-01' }],
    ['2027-03-02 13:00', { date: '2027-03-02', time: '13:00' }],
    ['2027-03-02T13:00:00Z', { date: '2027-03-02', time: '13:00' }],
    ['1.3.2027', { date: '2027-03-01' }],
    ['01.03.27', { date: '2027-03-01' }],
    ['02.03.2027 9:00', { date: '2027-03-02', time: '09:00' }],
    ['03/01/2027', undefined],
    ['Montag', undefined],
  ])('reads %j', (value, parsed) => {
    expect(parseDayDate(value)).toEqual(parsed);
  });
});

describe('matchShootingDay', () => {
  it.each<[string, 'auto' | 'id' | 'date' | 'label', ShootingDay | string]>([
    ['day-mon', 'auto', MONDAY],
    ['2027-03-01', 'auto', MONDAY],
    ['01.03.2027', 'auto', MONDAY],
    ['montag', 'auto', MONDAY],
    ['2027-03-02 13:00', 'auto', TUESDAY_AFTERNOON],
    ['2027-03-02', 'auto', 'shooting_day_ambiguous'],
    ['2027-03-03', 'auto', 'shooting_day_not_found'],
    ['day-mon', 'date', 'shooting_day_not_found'],
    ['2027-03-01', 'id', 'shooting_day_not_found'],
    ['Dienstag Vormittag', 'label', TUESDAY_MORNING],
    ['Montag', 'date', 'shooting_day_not_found'],
  ])('%j by %s', (value, by, expected) => {
    const verdict = matchShootingDay(value, DAYS, by);
    expect(verdict).toEqual(typeof expected === 'string' ? { problem: expected } : { day: expected });
  });
});
