import { FilterRule } from 'aws-cdk-lib/aws-lambda';

/**
 * aws-cdk-lib's FilterRule, whose builders its typings return as `any`: the same builders, returning
 * `unknown`, so that an event filter pattern is built without an untyped value.
 */
export const filterRule: {
  isEqual(value: string | number | boolean): unknown;
  beginsWith(prefix: string): unknown;
  or(...values: string[]): unknown;
} = FilterRule;
