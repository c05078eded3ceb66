import type { Notification } from '../../api/operations.js';
import type { DeliveryRow } from '../store/deliveries.js';
import type { PayloadFormat } from './delivery-log-store.js';

/**
 * The bodies a webhook can receive: the registry's own event (`reg`), a CloudEvents 1.0 event in structured
 * mode, or a CDEvents 0.4 `artifact.published` event. Each is built from the delivery's fixed event body and
 * its fixed facts only, so every attempt of one delivery carries the same bytes.
 */

/** The CloudEvents `type` of an event kind: reverse-DNS prefixed. */
export const cloudEventType = (kind: string): string => `org.reg.${kind}`;

/** The CDEvents event a delivery is sent as, and the specification version its context names. */
export const CDEVENTS_TYPE = 'dev.cdevents.artifact.published.0.2.0';
export const CDEVENTS_VERSION = '0.4.1';

/** A webhook body ready to sign and send. */
export interface WebhookPayload {
  readonly body: string;
  readonly contentType: string;
  /** CloudEvents binary-mode attributes, for the CDEvents body (the binding CDEvents defines over HTTP). */
  readonly headers: Readonly<Record<string, string>>;
}

/** The CDEvents subject id of an artifact: its package URL when its external key is one, else its IRI. */
function cdeventsSubjectId(notification: Notification): string {
  const key = notification.artifact.external_key;
  return typeof key === 'string' && key.startsWith('pkg:') ? key : notification.artifact_iri;
}

/** The body of a delivery in the subscription's format, from its fixed event body. */
export function formatPayload(
  format: PayloadFormat,
  registry: string,
  delivery: Pick<DeliveryRow, 'id' | 'matched_at' | 'artifact_iri'>,
  notification: string,
): WebhookPayload {
  if (format === 'reg') return { body: notification, contentType: 'application/json', headers: {} };
  const event = JSON.parse(notification) as Notification;
  if (format === 'cloudevents') {
    const body = {
      specversion: '1.0',
      id: delivery.id,
      source: registry,
      type: cloudEventType(event.type),
      time: delivery.matched_at,
      subject: delivery.artifact_iri,
      datacontenttype: 'application/json',
      data: event,
    };
    return { body: JSON.stringify(body), contentType: 'application/cloudevents+json', headers: {} };
  }
  const publisher = event.instance ?? event.software;
  const body = {
    context: {
      version: CDEVENTS_VERSION,
      id: delivery.id,
      source: registry,
      type: CDEVENTS_TYPE,
      timestamp: delivery.matched_at,
    },
    subject: {
      id: cdeventsSubjectId(event),
      source: registry,
      type: 'artifact',
      content: publisher === null ? {} : { user: publisher },
    },
    customData: event,
    customDataContentType: 'application/json',
  };
  const headers = {
    'ce-specversion': '1.0',
    'ce-id': delivery.id,
    'ce-source': registry,
    'ce-type': CDEVENTS_TYPE,
    'ce-time': delivery.matched_at,
  };
  return { body: JSON.stringify(body), contentType: 'application/json', headers };
}
