import * as v from 'valibot';
import { CheckinInfo, SubmitCheckinRequest } from '#lib/checkin/checkin-schemas';
import { CheckinRequest, CheckinResult } from '#lib/http/group-shoot-schemas';
import {
  FormField,
  FormFields,
  GalleryStats,
  Package,
  ShootingDay,
  ShootingDays,
} from '#lib/galleries/gallery-schemas';
import { CheckinStatusRequest, RetryCheckoutRequest, WebhookResult } from '#lib/payments/payment-schemas';
import { ImportRequest, ImportResult, ImportedPerson, Person, PersonsPage } from '#lib/persons/person-schemas';
import {
  MyPhotosRequest,
  ParticipantPhotos,
  PersonPhotos,
  PhotoLinkRequested,
  PhotosByLinkRequest,
  PickPhotoRequest,
  SendPhotoLinkRequest,
} from '#lib/photos/access/photo-schemas';
import {
  CompleteUploadsRequest,
  CompleteUploadsResult,
  InboxPage,
  UploadPlan,
  UploadRequest,
} from '#lib/photos/uploads/upload-schemas';
import { requestId } from '#lib/platform/schema-parts';
import { HrExportAnswer, HrExportRequest } from '#lib/hr-exports/hr-export-schemas';
import { FaceConsentWithdrawn, WithdrawFaceConsentRequest } from '#lib/privacy/face-consent-schemas';
import { ManageConsentsRequest, ParticipantConsents, Unsubscribed } from '#lib/privacy/consent-schemas';

/**
 * The request and response bodies of every route, collected from the features that take and
 * answer them: the source of the OpenAPI document's component schemas
 * (scripts/openapi/build-openapi.ts). The request schemas are the ones the bodies are parsed
 * with, so the document describes what the parsers take.
 */
export const ErrorBody = v.object({
  ok: v.literal(false),
  error: v.pipe(v.string(), v.description('A stable error code; see the error table.')),
  message: v.string(),
  requestId,
  field: v.optional(v.pipe(v.string(), v.description('invalid_field: the field concerned.'))),
  key: v.optional(v.pipe(v.string(), v.description('invalid_custom_field: the form-field key concerned.'))),
  parameter: v.optional(v.pipe(v.string(), v.description('invalid_parameter: the query parameter concerned.'))),
});

/**
 * Component schemas by name, as the OpenAPI document names them. A schema listed here is a
 * reference wherever another one holds it: CheckinRequest is a oneOf of the eight actions'.
 */
export const API_SCHEMAS = {
  ErrorBody,
  ShootingDay,
  FormField,
  Package,
  CheckinInfo,
  CheckinRequest,
  SubmitCheckinRequest,
  CheckinStatusRequest,
  RetryCheckoutRequest,
  MyPhotosRequest,
  SendPhotoLinkRequest,
  PhotosByLinkRequest,
  PickPhotoRequest,
  WithdrawFaceConsentRequest,
  ManageConsentsRequest,
  ParticipantPhotos,
  PhotoLinkRequested,
  FaceConsentWithdrawn,
  ParticipantConsents,
  CheckinResult,
  ImportRequest,
  ImportedPerson,
  ImportResult,
  Person,
  PersonsPage,
  PersonPhotos,
  FormFields,
  ShootingDays,
  GalleryStats,
  InboxPage,
  UploadRequest,
  UploadPlan,
  CompleteUploadsRequest,
  CompleteUploadsResult,
  HrExportRequest,
  HrExportAnswer,
  WebhookResult,
  Unsubscribed,
};

/** Request and 200 response schema of each route, by route ID. */
export const ROUTE_SCHEMAS: Record<
  string,
  { request?: keyof typeof API_SCHEMAS; response?: keyof typeof API_SCHEMAS }
> = {
  getCheckinInfo: { response: 'CheckinInfo' },
  submitCheckin: { request: 'CheckinRequest', response: 'CheckinResult' },
  listFormFields: { response: 'FormFields' },
  listPersons: { response: 'PersonsPage' },
  importPersons: { request: 'ImportRequest', response: 'ImportResult' },
  listPersonPhotos: { response: 'PersonPhotos' },
  listShootingDays: { response: 'ShootingDays' },
  getGalleryStats: { response: 'GalleryStats' },
  listInboxFiles: { response: 'InboxPage' },
  createUploads: { request: 'UploadRequest', response: 'UploadPlan' },
  completeUploads: { request: 'CompleteUploadsRequest', response: 'CompleteUploadsResult' },
  createHrExport: { request: 'HrExportRequest', response: 'HrExportAnswer' },
  getHrExport: { response: 'HrExportAnswer' },
  stripeWebhook: { response: 'WebhookResult' },
  // A form body and, for a browser, a page of HTML: scripts/openapi/build-openapi.ts describes them.
  unsubscribe: { response: 'Unsubscribed' },
};

export {
  CheckinInfo,
  CheckinRequest,
  CheckinResult,
  CheckinStatusRequest,
  FormField,
  FormFields,
  GalleryStats,
  ImportRequest,
  ImportResult,
  ImportedPerson,
  MyPhotosRequest,
  Package,
  ParticipantPhotos,
  Person,
  PersonPhotos,
  PersonsPage,
  PhotoLinkRequested,
  PhotosByLinkRequest,
  PickPhotoRequest,
  SendPhotoLinkRequest,
  RetryCheckoutRequest,
  InboxPage,
  UploadRequest,
  UploadPlan,
  CompleteUploadsRequest,
  CompleteUploadsResult,
  ShootingDay,
  ShootingDays,
  SubmitCheckinRequest,
  WebhookResult,
  HrExportRequest,
  HrExportAnswer,
  WithdrawFaceConsentRequest,
  FaceConsentWithdrawn,
};
