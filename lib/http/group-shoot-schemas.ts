import * as v from 'valibot';
import { CheckinDone, SubmitCheckinRequest } from '#lib/checkin/checkin-schemas';
import {
  CheckinStatusRequest,
  CheckoutStarted,
  OrderStatus,
  RetryCheckoutRequest,
} from '#lib/payments/payment-schemas';
import {
  MyPhotosRequest,
  ParticipantPhotos,
  PhotoLinkRequested,
  PhotosByLinkRequest,
  PickPhotoRequest,
  SendPhotoLinkRequest,
} from '#lib/photos/access/photo-schemas';
import { FaceConsentWithdrawn, WithdrawFaceConsentRequest } from '#lib/privacy/face-consent-schemas';
import { ManageConsentsRequest, ParticipantConsents } from '#lib/privacy/consent-schemas';

/** The body of POST /group-shoot: one of the actions' bodies, by its member `action`. */
export const CheckinRequest = v.variant('action', [
  SubmitCheckinRequest,
  CheckinStatusRequest,
  RetryCheckoutRequest,
  MyPhotosRequest,
  SendPhotoLinkRequest,
  PhotosByLinkRequest,
  PickPhotoRequest,
  WithdrawFaceConsentRequest,
  ManageConsentsRequest,
]);

export type CheckinAction = v.InferOutput<typeof CheckinRequest>['action'];

/** What POST /group-shoot answers: the answer of one of its actions. */
export const CheckinResult = v.union([
  CheckinDone,
  CheckoutStarted,
  OrderStatus,
  ParticipantPhotos,
  PhotoLinkRequested,
  FaceConsentWithdrawn,
  ParticipantConsents,
]);
