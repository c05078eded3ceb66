/**
 * Reading an attestation as it is sent: an in-toto Statement v1 on its own, inside a DSSE envelope, or inside a
 * Sigstore bundle (media types v0.1 to v0.3) whose content is a DSSE envelope. Only reading: signatures are
 * checked by `attestation-verify.ts`.
 */
import { InvalidEncodingError, MalformedInputError } from '../errors.js';
import { isObject, parseLimitedJson } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';

/** The `_type` of an in-toto Statement v1. */
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** The DSSE payload type of an in-toto statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** The media type a bare statement is kept and served as. */
export const STATEMENT_MEDIA_TYPE = 'application/vnd.in-toto+json';
/** The media type a DSSE envelope is kept and served as. */
export const DSSE_MEDIA_TYPE = 'application/vnd.dsse.envelope.v1+json';
/** The media types of the Sigstore bundles read. */
export const BUNDLE_MEDIA_TYPES: readonly string[] = [
  'application/vnd.dev.sigstore.bundle+json;version=0.1',
  'application/vnd.dev.sigstore.bundle+json;version=0.2',
  'application/vnd.dev.sigstore.bundle+json;version=0.3',
  'application/vnd.dev.sigstore.bundle.v0.3+json',
];

/** One signature of a DSSE envelope. */
export interface DsseSignature {
  readonly keyid: string | undefined;
  readonly sig: Buffer;
}

/** A DSSE envelope, its payload decoded from base64. */
export interface DsseEnvelope {
  readonly payloadType: string;
  readonly payload: Buffer;
  readonly signatures: readonly DsseSignature[];
}

/** An attestation as read: its form, the media type it is served back as, and the statement it carries. */
export interface ReadAttestation {
  readonly form: 'statement' | 'dsse' | 'sigstore-bundle';
  readonly mediaType: string;
  readonly statement: JsonObject;
  readonly envelope?: DsseEnvelope;
  /** The Sigstore bundle as sent. */
  readonly bundle?: JsonObject;
}

const refuse = (detail: string, field = ''): never => {
  throw new MalformedInputError(detail, field === '' ? {} : { errors: [{ field, message: detail }] });
};

/** Text decoded strictly: bytes that are not UTF-8 are refused rather than replaced. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** JSON text (the attestation, or a DSSE payload) read under the limits of every JSON body: `parseLimitedJson`. */
function parseJson(bytes: Buffer, maxDepth: number, what: string, field = ''): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new InvalidEncodingError(`${what} is not valid UTF-8`);
  }
  return parseLimitedJson(text, maxDepth, (message) =>
    refuse(`${what} is not valid JSON: ${message}`, field),
  );
}

/**
 * Reads the bytes of an attestation, JSON nested at most `maxDepth` deep (its DSSE payload too); anything that is
 * not one of the three forms is a 422 naming why.
 */
export function readAttestation(bytes: Buffer, maxDepth: number): ReadAttestation {
  const value = parseJson(bytes, maxDepth, 'the attestation');
  if (!isObject(value)) return refuse('the attestation must be a JSON object');
  if (
    typeof value.mediaType === 'string' &&
    value.mediaType.startsWith('application/vnd.dev.sigstore.bundle')
  )
    return readBundle(value, maxDepth);
  if (typeof value.payloadType === 'string' || typeof value.payload === 'string') {
    const envelope = readEnvelope(value, '');
    return { form: 'dsse', mediaType: DSSE_MEDIA_TYPE, statement: statementOf(envelope, maxDepth), envelope };
  }
  if (value._type !== undefined)
    return { form: 'statement', mediaType: STATEMENT_MEDIA_TYPE, statement: requireStatement(value) };
  return refuse(
    'the attestation is neither an in-toto statement (_type), a DSSE envelope (payloadType, payload, signatures) nor a Sigstore bundle (mediaType)',
  );
}

function readBundle(bundle: JsonObject, maxDepth: number): ReadAttestation {
  const mediaType = typeof bundle.mediaType === 'string' ? bundle.mediaType : '';
  if (!BUNDLE_MEDIA_TYPES.includes(mediaType))
    return refuse(
      `mediaType: ${mediaType} is not a Sigstore bundle version this registry reads (0.1 to 0.3)`,
    );
  const content = bundle.dsseEnvelope;
  if (!isObject(content)) {
    return refuse(
      'the Sigstore bundle carries no dsseEnvelope: only bundles of attestations (not of signed files) are read',
      'dsseEnvelope',
    );
  }
  const envelope = readEnvelope(content, 'dsseEnvelope.');
  return {
    form: 'sigstore-bundle',
    mediaType,
    statement: statementOf(envelope, maxDepth),
    envelope,
    bundle,
  };
}

function readEnvelope(value: JsonObject, at: string): DsseEnvelope {
  const { payloadType, payload, signatures } = value;
  if (typeof payloadType !== 'string') return refuse(`${at}payloadType must be a string`, `${at}payloadType`);
  if (typeof payload !== 'string') return refuse(`${at}payload must be base64 text`, `${at}payload`);
  if (!Array.isArray(signatures))
    return refuse(`${at}signatures must be a list of signatures`, `${at}signatures`);
  return {
    payloadType,
    payload: base64(payload, `${at}payload`),
    signatures: signatures.map((item, index) => {
      const where = `${at}signatures[${index}]`;
      if (!isObject(item) || typeof item.sig !== 'string')
        return refuse(`${where}.sig must be base64 text`, `${where}.sig`);
      return {
        keyid: typeof item.keyid === 'string' && item.keyid !== '' ? item.keyid : undefined,
        sig: base64(item.sig, `${where}.sig`),
      };
    }),
  };
}

/** Decodes standard or URL-safe base64, refusing text that is neither (Node would skip such characters). */
function base64(text: string, field: string): Buffer {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text.trim())) return refuse(`${field} is not base64`, field);
  return Buffer.from(text.trim().replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

function statementOf(envelope: DsseEnvelope, maxDepth: number): JsonObject {
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) {
    return refuse(
      `payloadType: ${envelope.payloadType} is not ${IN_TOTO_PAYLOAD_TYPE}; only in-toto statements are read`,
      'payloadType',
    );
  }
  return requireStatement(parseJson(envelope.payload, maxDepth, 'the DSSE payload', 'payload'));
}

/** A statement must be an in-toto Statement v1 with subjects and a predicate type. */
function requireStatement(value: unknown): JsonObject {
  if (!isObject(value)) return refuse('the in-toto statement must be a JSON object');
  if (value._type !== STATEMENT_TYPE)
    return refuse(`_type: ${JSON.stringify(value._type)} is not ${STATEMENT_TYPE}`, '_type');
  if (typeof value.predicateType !== 'string' || value.predicateType === '')
    return refuse('predicateType must name the kind of predicate', 'predicateType');
  if (!Array.isArray(value.subject) || value.subject.length === 0)
    return refuse('subject must list at least one artifact', 'subject');
  return value;
}
