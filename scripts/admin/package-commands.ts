import { findGallery } from '../cli-kit/lookups';
import {
  galleryToken,
  optionalText,
  optionalWholeNumber,
  requiredText,
  requiredWholeNumber,
  tenantSlug,
} from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { nextPosition, packageTable } from './gallery-tables';
import { requiredCurrency } from './admin-options';
import { addPackage } from '#lib/galleries/store/galleries';
import { sortPackages } from '#lib/galleries/rules/gallery-views';

/** `package add|list`: packages offered at check-in; a price above 0 makes a package paid. */
export const packageCommands: CommandHandlers = {
  async add(values) {
    tenantSlug(values, 'tenant');
    galleryToken(values);
    const name = requiredText(values, 'name');
    const price = requiredWholeNumber(values, 'price', 0);
    const currency = requiredCurrency(values);
    const description = optionalText(values, 'description', 1000) ?? '';
    const position = optionalWholeNumber(values, 'position', 0);
    const { tenant, configuration } = await findGallery(values);
    const pkg = await addPackage(tenant.tenantId, configuration.gallery.token, {
      name,
      description,
      price,
      currency,
      position: position ?? nextPosition(configuration.packages),
    });
    return {
      data: pkg,
      lines: [`Added package ${pkg.id} to gallery ${configuration.gallery.token}`, ...packageTable([pkg])],
    };
  },

  async list(values) {
    const { configuration } = await findGallery(values);
    const packages = sortPackages(configuration.packages);
    return {
      data: packages,
      lines: [`${packages.length} package(s) of gallery ${configuration.gallery.token}`, ...packageTable(packages)],
    };
  },
};
