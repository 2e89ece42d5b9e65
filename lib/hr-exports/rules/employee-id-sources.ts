import type { PersonSource } from '#lib/persons/rules/person-model';

/**
 * Where a person's employee ID came from (docs/hr-export.md#naming-and-clashes):
 * - `hr`: the HR import gave it. An imported person's check-in never replaces it (what the
 *   participant typed is kept apart, as `declared`), so it is HR's word on who the person is.
 * - `declared`: the participant typed it at their own check-in, which created the person (an open
 *   gallery). Nobody checked it: a colleague's ID is easy to know, so it may name someone else.
 */
export type EmployeeIdSource = 'hr' | 'declared';

/** The source of the person's employee ID; null for a person without one (a blank counts as none). */
export function employeeIdSourceOf(person: {
  source: PersonSource;
  employeeId: string | null;
}): EmployeeIdSource | null {
  if (!person.employeeId?.trim()) return null;
  return person.source === 'import' ? 'hr' : 'declared';
}
