import type { Template } from 'aws-cdk-lib/assertions';
import { asText } from '../../infra/permission-table';

/**
 * Enough of IAM's policy evaluation to ask what a function's role lets it do to the table:
 * identity statements of the synthesized template, evaluated for one DynamoDB request with its
 * context keys (`dynamodb:LeadingKeys`, `dynamodb:Attributes`, `dynamodb:ReturnValues`). An
 * explicit Deny wins; otherwise any Allow whose action, resource and conditions all match.
 * A condition operator it does not know makes it throw, so that a new kind of grant cannot pass
 * unexamined.
 */

export type Statement = {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

/** A DynamoDB request as IAM sees it. */
export interface TableRequest {
  action: string;
  /** The table itself, or an index. */
  on: 'table' | 'gsi1' | 'gsi2';
  /** The partition keys the request names (none for Scan). */
  leadingKeys: string[];
  attributes?: string[];
  returnValues?: string;
}

/** IAM's StringLike: `*` any run of characters, `?` exactly one, everything else literal, case-sensitive. */
export function stringLike(pattern: string, value: string): boolean {
  const expression = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${expression}$`, 's').test(value);
}

/** A CloudFormation value as text: the permission table's reading (infra/permission-table.ts), for the infra tests. */
export { asText };

/** The statements of every IAM policy attached to the role of a function (by its logical ID). */
export function roleStatements(template: Template, functionId: string): Statement[] {
  const fn = template.findResources('AWS::Lambda::Function')[functionId];
  const roleId = fn?.Properties.Role['Fn::GetAtt'][0];
  if (!roleId) throw new Error(`no role for ${functionId}`);
  const role = template.findResources('AWS::IAM::Role')[roleId]!;
  if ((role.Properties.Policies ?? []).length > 0)
    throw new Error(`${roleId} has inline policies this evaluation does not read`);
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((ref: { Ref: string }) => ref.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

type ContextValue = string[] | undefined;

function contextOf(request: TableRequest): Record<string, ContextValue> {
  return {
    'dynamodb:LeadingKeys': request.leadingKeys.length > 0 ? request.leadingKeys : undefined,
    'dynamodb:Attributes': request.attributes,
    'dynamodb:ReturnValues': request.returnValues === undefined ? undefined : [request.returnValues],
  };
}

function matchesOperator(operator: string, values: ContextValue, patterns: string[]): boolean {
  const [qualifier, base] = operator.includes(':') ? (operator.split(':') as [string, string]) : [undefined, operator];
  const ifExists = base.endsWith('IfExists');
  const test = base.replace(/IfExists$/, '');
  const match = (value: string) =>
    patterns.some((pattern) => {
      if (test === 'StringLike') return stringLike(pattern, value);
      if (test === 'StringEquals') return pattern === value;
      throw new Error(`condition operator ${operator} is not understood by this evaluation`);
    });
  if (qualifier === 'ForAllValues') return values === undefined || values.every(match);
  if (qualifier === 'ForAnyValue') return values !== undefined && values.some(match);
  if (qualifier !== undefined) throw new Error(`condition operator ${operator} is not understood by this evaluation`);
  if (values === undefined) return ifExists;
  if (values.length !== 1) throw new Error(`${operator} on a multivalued key`);
  return match(values[0]!);
}

function conditionsHold(condition: Statement['Condition'], context: Record<string, ContextValue>): boolean {
  for (const [operator, entries] of Object.entries(condition ?? {})) {
    for (const [key, expected] of Object.entries(entries)) {
      if (!(key in context)) throw new Error(`condition key ${key} is not understood by this evaluation`);
      const values = context[key];
      if (operator === 'Null') {
        if ((values === undefined) !== (expected === 'true' || expected === true)) return false;
        continue;
      }
      if (!matchesOperator(operator, values, [expected].flat().map(String))) return false;
    }
  }
  return true;
}

/**
 * Whether the statements allow the request. `tableArn` is the table's ARN as asText writes it
 * (e.g. `${TableCD117FA1.Arn}`); an index is `<tableArn>/index/<gsi1|gsi2>`.
 */
export function allows(statements: Statement[], request: TableRequest, tableArn: string): boolean {
  const resource = request.on === 'table' ? tableArn : `${tableArn}/index/${request.on}`;
  return evaluate(statements, request.action, resource, contextOf(request));
}

/** An S3 request as IAM sees it: an object's ARN, or the bucket's with the listing's prefix. */
export interface BucketRequest {
  action: string;
  /** `arn:aws:s3:::<bucket>/<key>` or `arn:aws:s3:::<bucket>`. */
  resource: string;
  /** ListBucket's `s3:prefix`. */
  prefix?: string;
}

/** Whether the statements allow an S3 request (a policy document's statements, or a role's). */
export function allowsOnBucket(statements: Statement[], request: BucketRequest): boolean {
  return evaluate(statements, request.action, request.resource, {
    's3:prefix': request.prefix === undefined ? undefined : [request.prefix],
  });
}

/** An explicit Deny wins; otherwise any Allow whose action, resource and conditions all match. */
function evaluate(
  statements: Statement[],
  action: string,
  resource: string,
  context: Record<string, ContextValue>,
): boolean {
  const applies = (statement: Statement) =>
    [statement.Action].flat().some((pattern) => stringLike(pattern, action)) &&
    [statement.Resource].flat().some((pattern) => stringLike(asText(pattern), resource)) &&
    conditionsHold(statement.Condition, context);
  if (statements.some((statement) => statement.Effect === 'Deny' && applies(statement))) return false;
  return statements.some((statement) => statement.Effect === 'Allow' && applies(statement));
}
