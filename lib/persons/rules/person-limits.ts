/**
 * The limits of what an import or a check-in says of a person: the import schema, the check-in
 * schema, the page's own checks and the error messages read these, and docs/api-reference.md
 * lists them (a test holds that table to them).
 */

/** Longest accepted value of each text field of a person, in characters after trimming; `name` also needs one. */
export const PERSON_TEXT_LIMITS = {
  name: 200,
  email: 200,
  employeeId: 100,
  phone: 50,
  department: 100,
  notes: 1000,
} as const;

/** Persons in one import request. */
export const MAX_PERSONS_PER_IMPORT = 500;
