/**
 * Example answers for the OpenAPI document, hand-written where generation cannot invent
 * realistic values; tests validate each against its own schema.
 */
export const EXAMPLES: Record<string, Record<string, unknown>> = {
  importPersons: {
    ok: true,
    requestId: 'a1B2c3D4e5F6g7H8',
    galleryToken: 'hpfvwks795s6wvs8',
    imported: 1,
    skipped: 1,
    persons: [
      { personId: 'per_01m80q1gezmm1ck1e5s2zp25hb', name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1', shootingDayId: null, code: 'K7QM' },
    ],
    skippedDetails: [{ index: 1, reason: 'email_invalid' }],
  },
  listShootingDays: {
    ok: true,
    requestId: 'a1B2c3D4e5F6g7H8',
    galleryToken: 'hpfvwks795s6wvs8',
    shootingDays: [
      { id: 'day_01m80q1gezmm1ck1e5s2zp25hb', date: '2026-12-06', label: 'Headquarters', startTime: '09:00', endTime: '17:00', maxPersons: 60, spotsRemaining: 19, booked: 41 },
    ],
  },
  submitCheckin: { ok: true, personId: 'per_01m80q1gezmm1ck1e5s2zp25hb', code: 'K7QM', name: 'Ada Lovelace', requestId: 'a1B2c3D4e5F6g7H8' },
};
