import NodeEnvironment from 'jest-environment-node';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';

/**
 * Jest's node environment, plus one docblock pragma: a test file that reads the service's
 * logs says `@logLevel DEBUG` at its top; all others run with logging silenced.
 */
export default class ServiceTestEnvironment extends NodeEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const level = context.docblockPragmas.logLevel;
    this.global.process.env.POWERTOOLS_LOG_LEVEL = typeof level === 'string' ? level : 'SILENT';
  }
}
