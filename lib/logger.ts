import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs. Request and response bodies, headers, API keys, tokens and selfies
 * are never passed to it; the pipeline appends the request ID, tenant and route.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'groupshoot-api' });
