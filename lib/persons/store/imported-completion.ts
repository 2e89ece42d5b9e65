import { tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { keys } from '#lib/platform/table/keys';
import { GSI1 } from '#lib/platform/table/table-definition';
import { guestListEntryUpdate } from '#lib/persons/store/guest-list';
import { UNCHANGED_BY_COMPLETION } from '#lib/persons/rules/imported-completion';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * The two items that store an imported person as its check-in completed it (`completed`, from
 * completedPerson): the person, on `condition` (who may complete it: a free check-in's claim, or
 * a paid order when nobody checked the person in meanwhile), and its place on the guest list
 * under its address now. The check-in and the payment feature each add their own items to them.
 */
export function importedCompletionItems(
  scope: GalleryScope,
  completed: Person,
  condition: { expression: string; values: Record<string, unknown>; names?: Record<string, string> },
): [TransactItem, TransactItem] {
  const personKey = keys.person(scope.tenantId, scope.token, completed.personId);
  const email = completed.email;
  if (email === null) throw new Error('A check-in always gives an email address');
  const employeeIndex = completed.employeeId
    ? {
        [GSI1.partitionKey]: keys.personsByEmployeeId(scope.tenantId, scope.token, completed.employeeId),
        [GSI1.sortKey]: personKey.sk,
      }
    : {};
  const values: Record<string, unknown> = {
    ...Object.fromEntries(Object.entries(completed).filter(([name]) => !UNCHANGED_BY_COMPLETION.has(name))),
    ...employeeIndex,
  };
  const names = Object.keys(values);
  return [
    {
      Update: {
        TableName: tableName,
        Key: personKey,
        UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')} REMOVE checkinClaim, checkinClaimUntil`,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
          ...condition.names,
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, index) => [`:a${index}`, values[name]])),
          ...condition.values,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    { Update: guestListEntryUpdate(scope, completed, email) },
  ];
}
