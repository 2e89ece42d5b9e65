import { monotonicFactory } from 'ulid';
import { pooledRandomFraction } from '#lib/platform/secret-values';
import { now } from '#lib/platform/clock';

/**
 * An HR export (docs/hr-export.md): one job that puts one portrait per consenting person of a
 * gallery (or of one shooting day) into a ZIP with a manifest, for the studio's client to load
 * into its HR system, directory or chat tool.
 */

/** queued → running → ready | failed; ready → erased when erasure removes a person it holds. */
export type HrExportStatus = 'queued' | 'running' | 'ready' | 'failed' | 'erased';

/** Side of the square portraits when the request names none: what common directory and chat tools recommend. */
export const DEFAULT_PORTRAIT_SIZE = 648;
export const PORTRAIT_SIZE_LIMITS = { min: 64, max: 2048 } as const;
/** JPEG quality of the portraits (sharp's scale, 1-100). */
export const PORTRAIT_JPEG_QUALITY = 85;

/** How long the ZIP stays in the bucket: a lifecycle rule deletes it then (infra/media-delivery.ts). */
export const HR_EXPORT_OBJECT_DAYS = 7;
/** How long a download URL works, from the moment it is handed out (each read of a ready export hands out a new one). */
export const HR_EXPORT_DOWNLOAD_URL_SECONDS = 60 * 60;
/** The export's record outlives its ZIP by a day, then expires by TTL. */
export const HR_EXPORT_RECORD_DAYS = HR_EXPORT_OBJECT_DAYS + 1;

/** Why a person of the gallery (or day) is not in the ZIP. */
export type SkipReason = 'noConsent' | 'noPhoto';

/** What a ready export holds and what it left out, by reason. */
export interface HrExportReport {
  /** Persons considered: the gallery's, or the shooting day's. */
  persons: number;
  exported: number;
  skipped: Record<SkipReason, number>;
  /** File names changed to keep them apart (same employee ID, or names equal but for case or unsafe characters), or to keep a declared ID off an HR ID's name. */
  renamed: { personId: string; wanted: string; fileName: string }[];
  cropsComputed: number;
  cropsReused: number;
}

export interface HrExport {
  exportId: string;
  tenantId: string;
  galleryToken: string;
  status: HrExportStatus;
  /** Only this shooting day's persons; null for the whole gallery. */
  shootingDayId: string | null;
  size: number;
  createdAt: string;
  updatedAt: string;
  /** ready: where the ZIP is, when it goes, and what it holds. */
  objectKey?: string;
  objectExpiresAt?: string;
  report?: HrExportReport;
  /** failed: why, in a stable word. */
  reason?: HrExportFailure;
}

export type HrExportFailure = 'gallery_gone' | 'build_failed';

export function emptyReport(): HrExportReport {
  return {
    persons: 0,
    exported: 0,
    skipped: { noConsent: 0, noPhoto: 0 },
    renamed: [],
    cropsComputed: 0,
    cropsReused: 0,
  };
}

const exportUlid = monotonicFactory(pooledRandomFraction);

/** `hrx_` + a lowercase ULID. */
export function newHrExportId(): string {
  return `hrx_${exportUlid(now()).toLowerCase()}`;
}

export const HR_EXPORT_ID = /^hrx_[0-9a-z]{26}$/;

export function isHrExportIdShaped(value: string): boolean {
  return HR_EXPORT_ID.test(value);
}

/** Receives of an export's message before the queue moves it to its dead-letter queue; the last attempt marks a failing export failed. */
export const HR_EXPORT_MAX_RECEIVES = 3;
