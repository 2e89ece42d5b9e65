import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../cli-kit/cli-errors';
import { type OptionValues, flag, optionalText } from '../cli-kit/options';

/** A domain of the studio's with its ACM certificate. */
export interface DomainSetting {
  domainName: string;
  certificateArn: string;
}

/** The domains the stack can serve on: the API (API Gateway, certificate in the stack's region) and the CloudFront ones (us-east-1). */
export const DOMAIN_NAMES = ['api', 'photoCdn', 'checkinPage', 'apiFront'] as const;
export type DomainName = (typeof DOMAIN_NAMES)[number];

/** What `npm run deploy` chose, kept in the settings file for the next run (no secret is in it). */
export interface DeploySettings {
  stackName: string;
  region: string;
  /** The account of the first deploy: a later run with credentials of another account stops. */
  account?: string;
  domains: Partial<Record<DomainName, DomainSetting>>;
  /** The API front (CloudFront with AWS WAF before the API): on unless --without-api-front. */
  apiFront: boolean;
  /** An existing web ACL of scope CLOUDFRONT (us-east-1) for the front; without one the app deploys its own stack there. */
  apiFrontWebAclArn?: string;
  alarmAddress?: string;
  senderAddress?: string;
  checkinTenant?: string;
  reserveConcurrency: boolean;
  /** Where the public half of the photo signing key pair is (the private half is only in the secret). */
  photoSigningPublicKeyFile: string;
}

export const DEFAULT_SETTINGS_FILE = 'groupshoot-deploy.json';
export const DEFAULT_PUBLIC_KEY_FILE = 'infra/keys/photo-signing-public.pem';

/** The command line's options for settings: `--<domain>-domain` and `--<domain>-certificate` per domain. */
export const SETTING_OPTIONS = {
  region: { type: 'string' },
  'stack-name': { type: 'string' },
  'alarm-address': { type: 'string' },
  'sender-address': { type: 'string' },
  'checkin-tenant': { type: 'string' },
  'api-domain': { type: 'string' },
  'api-certificate': { type: 'string' },
  'photo-domain': { type: 'string' },
  'photo-certificate': { type: 'string' },
  'checkin-domain': { type: 'string' },
  'checkin-certificate': { type: 'string' },
  'api-front-web-acl': { type: 'string' },
  'api-front-domain': { type: 'string' },
  'api-front-certificate': { type: 'string' },
  'without-reserved-concurrency': { type: 'boolean' },
  'without-api-front': { type: 'boolean' },
} as const;

const DOMAIN_OPTIONS: Record<DomainName, string> = {
  api: 'api',
  photoCdn: 'photo',
  checkinPage: 'checkin',
  apiFront: 'api-front',
};

/** The settings file's content, or undefined when there is none yet. */
export function readSettingsFile(path: string): Partial<DeploySettings> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Partial<DeploySettings>;
  } catch (error) {
    throw new UsageError(`${path} is not a settings file of npm run deploy: ${(error as Error).message}`);
  }
}

export function writeSettingsFile(path: string, settings: DeploySettings): void {
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * The settings of this run: each option as given, else the saved one, else the default. A domain
 * needs both its name and its certificate; `none` as a value drops a saved setting.
 */
export function mergeSettings(
  values: OptionValues,
  saved: Partial<DeploySettings> = {},
  env: NodeJS.ProcessEnv = {},
): Partial<DeploySettings> &
  Pick<DeploySettings, 'stackName' | 'domains' | 'reserveConcurrency' | 'apiFront' | 'photoSigningPublicKeyFile'> {
  const given = (name: string, fallback: string | undefined) => {
    const value = optionalText(values, name, 2048);
    return value === 'none' ? undefined : (value ?? fallback);
  };
  const domains: Partial<Record<DomainName, DomainSetting>> = {};
  for (const name of DOMAIN_NAMES) {
    const option = DOMAIN_OPTIONS[name];
    const domainName = given(`${option}-domain`, saved.domains?.[name]?.domainName);
    const certificateArn = given(`${option}-certificate`, saved.domains?.[name]?.certificateArn);
    if (!domainName && !certificateArn) continue;
    if (!domainName || !certificateArn)
      throw new UsageError(`Give both --${option}-domain and --${option}-certificate, or neither`);
    domains[name] = { domainName, certificateArn };
  }
  const apiFrontWebAclArn = given('api-front-web-acl', saved.apiFrontWebAclArn);
  if (domains.apiFront && !apiFrontWebAclArn)
    throw new UsageError("--api-front-domain needs --api-front-web-acl: the domain is the API front's");
  return {
    stackName: given('stack-name', saved.stackName) ?? 'GroupShoot',
    region: given('region', saved.region) ?? env.AWS_REGION,
    account: saved.account,
    domains,
    apiFront: flag(values, 'without-api-front') ? false : (saved.apiFront ?? true),
    apiFrontWebAclArn,
    alarmAddress: given('alarm-address', saved.alarmAddress),
    senderAddress: given('sender-address', saved.senderAddress),
    checkinTenant: given('checkin-tenant', saved.checkinTenant),
    reserveConcurrency: flag(values, 'without-reserved-concurrency') ? false : (saved.reserveConcurrency ?? true),
    photoSigningPublicKeyFile: saved.photoSigningPublicKeyFile ?? DEFAULT_PUBLIC_KEY_FILE,
  };
}

/** The `-c name=value` context of infra/app.ts for these settings. */
export function cdkContext(settings: DeploySettings): Record<string, string> {
  const context: Record<string, string> = {
    stackName: settings.stackName,
    photoSigningPublicKeyFile: settings.photoSigningPublicKeyFile,
  };
  const set = (name: string, value: string | undefined) => {
    if (value) context[name] = value;
  };
  set('checkinTenantSlug', settings.checkinTenant);
  set('photoNoticeSender', settings.senderAddress);
  set('alarmSubscription', settings.alarmAddress);
  set('apiFrontWebAclArn', settings.apiFrontWebAclArn);
  for (const name of DOMAIN_NAMES) {
    set(`${name}DomainName`, settings.domains[name]?.domainName);
    set(`${name}CertificateArn`, settings.domains[name]?.certificateArn);
  }
  if (!settings.reserveConcurrency) context.reserveConcurrency = 'false';
  if (!settings.apiFront) context.apiFront = 'false';
  return context;
}

/**
 * The web ACL's own stack in us-east-1 (infra/api-stacks.ts), when the app adds one: the front is
 * on and no web ACL of the studio's is named. `cdk deploy` of the API's stack deploys it first.
 */
export function webAclStackOf(settings: DeploySettings): string | undefined {
  return settings.apiFront && !settings.apiFrontWebAclArn ? `${settings.stackName}ApiFrontWebAcl` : undefined;
}
