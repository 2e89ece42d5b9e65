import { ConflictError, NotFoundError } from '../cli-kit/cli-errors';
import { formatFields, formatTable } from '../cli-kit/output';
import { findTenant } from '../cli-kit/lookups';
import { type OptionValues, requiredText, tenantSlug } from '../cli-kit/options';
import type { CommandHandlers, CommandResult } from './command-types';
import {
  type ApiKeyRecord,
  type ApiKeyStatus,
  createApiKey,
  listApiKeys,
  setApiKeyStatus,
} from '#lib/tenants/store/api-keys';

const SHOWN_ONCE_WARNING = 'Store this key now: it will not be shown again. Only its prefix can be listed later.';

/**
 * `key create|list|revoke|disable|enable`. Only `create` ever prints a key value; every other
 * output is built from ApiKeyRecord, which holds neither the value nor its hash.
 */
export const keyCommands: CommandHandlers = {
  async create(values) {
    tenantSlug(values, 'tenant');
    const name = requiredText(values, 'name');
    const tenant = await findTenant(values);
    const { record, secret } = await createApiKey(tenant.tenantId, name);
    return {
      data: { ...record, tenantSlug: tenant.slug, key: secret, warning: SHOWN_ONCE_WARNING },
      lines: [
        `Created API key ${record.keyId} "${record.name}" for tenant "${tenant.slug}"`,
        '',
        `  ${secret}`,
        '',
        SHOWN_ONCE_WARNING,
      ],
    };
  },

  async list(values) {
    const tenant = await findTenant(values);
    const records = await listApiKeys(tenant.tenantId);
    return {
      data: records,
      lines: [
        `${records.length} API key(s) of tenant "${tenant.slug}"`,
        ...formatTable(
          ['KEY ID', 'NAME', 'STATUS', 'PREFIX', 'CREATED'],
          records.map((record) => [record.keyId, record.name, record.status, record.displayPrefix, record.createdAt]),
        ),
      ],
    };
  },

  revoke: (values) => changeStatus(values, 'revoked'),
  disable: (values) => changeStatus(values, 'disabled'),
  enable: (values) => changeStatus(values, 'active'),
};

const VERB: Record<ApiKeyStatus, string> = { revoked: 'Revoked', disabled: 'Disabled', active: 'Enabled' };

async function changeStatus(values: OptionValues, status: ApiKeyStatus): Promise<CommandResult> {
  tenantSlug(values, 'tenant');
  const keyId = requiredText(values, 'id');
  const tenant = await findTenant(values);
  const outcome = await setApiKeyStatus(tenant.tenantId, keyId, status);
  if (outcome === 'not_found') throw new NotFoundError(`Tenant "${tenant.slug}" has no API key with ID "${keyId}"`);
  // Revoking twice reaches the state asked for; anything else on a revoked key cannot.
  if (outcome === 'revoked_already' && status !== 'revoked') {
    throw new ConflictError(`API key ${keyId} is revoked, and revocation is final; create a new key instead`);
  }
  const record = (await listApiKeys(tenant.tenantId)).find((candidate) => candidate.keyId === keyId);
  if (!record) throw new NotFoundError(`Tenant "${tenant.slug}" has no API key with ID "${keyId}"`);
  const headline =
    outcome === 'revoked_already' ? `API key ${keyId} was revoked already` : `${VERB[status]} API key ${keyId}`;
  return { data: record, lines: [headline, ...keyLines(record)] };
}

function keyLines(record: ApiKeyRecord): string[] {
  return formatFields([
    ['name', record.name],
    ['status', record.status],
    ['prefix', record.displayPrefix],
    ['created', record.createdAt],
    ['updated', record.updatedAt],
  ]);
}
