import { matchGuest } from '#lib/checkin/rules/guest-match';
import { completedPerson } from '#lib/persons/rules/imported-completion';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';
import { samplePerson } from '../../support/event-samples';

/** An imported person as the import stores it (the shared sample, with Ada's address); a fixed creation time, so two calls make equal persons. */
const imported = (personId: string, overrides: Partial<Person> = {}): Person =>
  samplePerson({
    personId,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    employeeId: 'E-1',
    department: null,
    shootingDayId: 'day-1',
    code: 'AB12',
    source: 'import',
    createdAt: '2027-01-01T09:00:00.000Z',
    ...overrides,
  });

const CHECKED_IN = { checkedInAt: '2027-01-02T00:00:00.000Z' };

const ADA = 'ada@example.com';

describe('which imported person an importedOnly check-in completes, where the deployment sends no email', () => {
  it('completes the person holding the address', () => {
    const ada = imported('per_1');
    expect(matchGuest([ada], ADA)).toEqual({ kind: 'complete', person: ada });
  });

  it('completes the first of several holding the address that has not checked in', () => {
    const [first, second, third] = [imported('per_1', CHECKED_IN), imported('per_2'), imported('per_3')];
    expect(matchGuest([first, second, third], ADA)).toEqual({ kind: 'complete', person: second });
  });

  it('is a repeated check-in when everyone holding the address has checked in', () => {
    expect(matchGuest([imported('per_1', CHECKED_IN)], ADA)).toEqual({ kind: 'repeat' });
  });

  it('names nobody for an address of no imported person, whatever employee ID it types', () => {
    expect(matchGuest([], 'mallory@example.com')).toEqual({ kind: 'none' });
  });

  it('completes a person imported without an address only with the invitation the studio handed them', () => {
    const grace = imported('per_2', { email: null, employeeId: 'E-2' });
    expect(matchGuest([], 'grace@example.com', { invitedPerson: grace })).toEqual({ kind: 'complete', person: grace });
    expect(matchGuest([], 'grace@example.com')).toEqual({ kind: 'none' });
  });

  it('is a repeated check-in when the address is invited but its persons are taken by other check-ins', () => {
    expect(matchGuest([], ADA, { invitedAddress: true })).toEqual({ kind: 'repeat' });
  });
});

describe('invitations, where the deployment sends email', () => {
  const required = { invitationsRequired: true };

  it('sends the invitations of every person holding the address that has not checked in, when the check-in carries none', () => {
    const [first, second, third] = [imported('per_1', CHECKED_IN), imported('per_2'), imported('per_3')];
    expect(matchGuest([first, second, third], ADA, required)).toEqual({ kind: 'invite', persons: [second, third] });
  });

  it('completes the person its invitation names', () => {
    const [second, third] = [imported('per_2'), imported('per_3')];
    expect(matchGuest([second, third], ADA, { ...required, invitedPerson: third })).toEqual({
      kind: 'complete',
      person: third,
    });
  });

  it('does not complete by an invitation of someone at another address, or of someone who checked in', () => {
    const elsewhere = imported('per_9', { email: 'ivy@example.com' });
    expect(matchGuest([imported('per_1')], ADA, { ...required, invitedPerson: elsewhere })).toEqual({
      kind: 'invite',
      persons: [imported('per_1')],
    });
    const checkedIn = imported('per_1', CHECKED_IN);
    expect(matchGuest([checkedIn], ADA, { ...required, invitedPerson: checkedIn })).toEqual({ kind: 'repeat' });
  });

  it('completes a person imported without an address with their invitation, whatever address it checks in with', () => {
    const grace = imported('per_2', { email: null, employeeId: 'E-2' });
    expect(matchGuest([], 'grace@example.com', { ...required, invitedPerson: grace })).toEqual({
      kind: 'complete',
      person: grace,
    });
  });

  it('refuses a repeated check-in of the address without the invitation of one of its persons, and sends them theirs', () => {
    const ada = imported('per_1', CHECKED_IN);
    expect(matchGuest([ada], ADA, required)).toEqual({ kind: 'invite', persons: [ada] });
  });
});

describe('an imported person as its check-in completes it', () => {
  it("keeps HR's identity with what the participant declared beside it, takes the rest they gave, keeps the import's where they left it blank, and marks it checked in", () => {
    // Prepare
    const ada = imported('per_1', {
      phone: '+44 1',
      department: 'Analytics',
      customFields: { 'custom-a': 'kept', 'custom-b': 'old' },
    });
    const checkin: PersonDraft = {
      ...ada,
      personId: 'per_1',
      name: 'Ada King',
      email: 'Ada@Example.com',
      employeeId: null,
      phone: '+44 2',
      department: null,
      shootingDayId: null,
      packageId: 'pkg-1',
      consents: { consentGiven: true, faceConsent: true, notificationConsent: null, hrExportConsent: null },
      customFields: { 'custom-b': 'new' },
      source: 'checkin',
      hasSelfie: true,
    };
    // Act
    const completed = completedPerson(ada, checkin);
    // Assess
    expect(completed).toEqual({
      ...ada,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      declared: { name: 'Ada King' },
      employeeId: 'E-1',
      phone: '+44 2',
      department: 'Analytics',
      shootingDayId: 'day-1',
      packageId: 'pkg-1',
      consents: checkin.consents,
      customFields: { 'custom-a': 'kept', 'custom-b': 'new' },
      hasSelfie: true,
      source: 'import',
      code: 'AB12',
      checkedInAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('never lets a typed employee ID or address replace what HR imported, and keeps them as declared', () => {
    // Prepare
    const ivy = imported('per_10', { name: 'Ivy', email: 'ivy@example.com', employeeId: 'E-10' });
    const typed: PersonDraft = { ...ivy, name: 'Ivy', email: 'ivy@elsewhere.example', employeeId: 'E-11' };
    // Act
    const completed = completedPerson(ivy, typed);
    // Assess
    expect([completed.name, completed.email, completed.employeeId, completed.declared]).toEqual([
      'Ivy',
      'ivy@example.com',
      'E-10',
      { email: 'ivy@elsewhere.example', employeeId: 'E-11' },
    ]);
  });

  it('gives a person imported without an address the one it checks in with, and no employee ID HR did not import', () => {
    // Prepare
    const grace = imported('per_7', { name: 'Grace Hopper', email: null, employeeId: null });
    const typed: PersonDraft = { ...grace, email: 'grace@example.com', employeeId: 'E-40' };
    // Act
    const completed = completedPerson(grace, typed);
    // Assess
    expect([completed.email, completed.employeeId, completed.declared]).toEqual([
      'grace@example.com',
      null,
      { employeeId: 'E-40' },
    ]);
  });
});
