/**
 * Checking the signatures of an attestation: a DSSE envelope against the public keys the operator configured
 * (`REG_ATTESTATION_KEYS`: PEM public keys or a JWKS), a Sigstore bundle offline against the operator's trust root
 * (`REG_SIGSTORE_TRUSTED_ROOT`, Sigstore's `trusted_root.json`). The outcome is recorded, never thrown: whether an
 * unverified attestation is accepted is the caller's decision.
 */
import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { bundleFromJSON } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, Verifier, type TrustMaterial } from '@sigstore/verify';
import type { AttestationSettings, Config } from '../config/index.js';
import { isObject } from '../records/json.js';
import type { DsseEnvelope, ReadAttestation } from './attestation-envelope.js';

/** The attestation settings of a configuration. */
export function attestationSettings(config: Config): AttestationSettings {
  return config.attestations;
}

/** What the signature check of one attestation found. */
export type Verification =
  | {
      readonly status: 'verified';
      readonly method: 'dsse' | 'sigstore';
      /** The configured key that verified a DSSE signature (its `kid`, else the SHA-256 of its SPKI). */
      readonly key_id?: string;
      /** The signing certificate's subject (its subject alternative name) and the OIDC issuer it names. */
      readonly subject?: string;
      readonly issuer?: string;
    }
  | { readonly status: 'unverified'; readonly reason: string }
  | { readonly status: 'failed'; readonly method: 'dsse' | 'sigstore'; readonly reason: string };

/** A public key the operator trusts, with the id a signature may name it by. */
interface TrustedKey {
  readonly id: string;
  readonly key: KeyObject;
}

/** Checks the signatures of an attestation as read. */
export function verifyAttestation(read: ReadAttestation, settings: AttestationSettings): Verification {
  if (read.envelope === undefined)
    return { status: 'unverified', reason: 'a bare statement carries no signature' };
  if (read.bundle !== undefined) return verifyBundle(read.bundle, settings);
  return verifyEnvelope(read.envelope, settings);
}

/** The DSSE pre-authentication encoding of a payload: what a DSSE signature signs. */
export function preAuthEncoding(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${payload.length} `, 'utf8'),
    payload,
  ]);
}

function verifyEnvelope(envelope: DsseEnvelope, settings: AttestationSettings): Verification {
  if (settings.keysFile === undefined)
    return { status: 'unverified', reason: 'no public keys are configured (REG_ATTESTATION_KEYS)' };
  let keys: TrustedKey[];
  try {
    keys = readKeys(settings.keysFile);
  } catch (error) {
    return {
      status: 'unverified',
      reason: `the public keys of REG_ATTESTATION_KEYS cannot be read: ${(error as Error).message}`,
    };
  }
  if (envelope.signatures.length === 0)
    return { status: 'failed', method: 'dsse', reason: 'the DSSE envelope carries no signature' };
  const signed = preAuthEncoding(envelope.payloadType, envelope.payload);
  for (const signature of envelope.signatures) {
    // A signature naming a key is checked against that key only; one naming none against every key.
    const named = keys.filter((key) => key.id === signature.keyid);
    for (const key of named.length > 0 ? named : keys)
      if (signatureHolds(signed, key.key, signature.sig))
        return { status: 'verified', method: 'dsse', key_id: key.id };
  }
  return {
    status: 'failed',
    method: 'dsse',
    reason: 'no signature of the DSSE envelope verifies with a configured public key',
  };
}

/** Whether `sig` is a signature of `data` by `key`: Ed25519, ECDSA (DER or raw r‖s) or RSA. */
function signatureHolds(data: Buffer, key: KeyObject, sig: Buffer): boolean {
  try {
    switch (key.asymmetricKeyType) {
      case 'ed25519':
      case 'ed448':
        return verifySignature(null, data, key, sig);
      case 'ec': {
        const curve = key.asymmetricKeyDetails?.namedCurve;
        const hash = curve === 'secp384r1' ? 'sha384' : curve === 'secp521r1' ? 'sha512' : 'sha256';
        return (
          verifySignature(hash, data, { key, dsaEncoding: 'der' }, sig) ||
          verifySignature(hash, data, { key, dsaEncoding: 'ieee-p1363' }, sig)
        );
      }
      case 'rsa':
        return verifySignature('sha256', data, key, sig);
      default:
        return false;
    }
  } catch {
    // A signature of the wrong shape for its key is one that does not verify.
    return false;
  }
}

/** Reads a file of PEM public keys, or a JWKS; read at each check, so a changed key file takes effect at once. */
function readKeys(file: string): TrustedKey[] {
  const text = fs.readFileSync(file, 'utf8');
  const keys = text.trimStart().startsWith('{') ? jwksKeys(text) : pemKeys(text);
  if (keys.length === 0) throw new Error(`${file} holds no public key`);
  return keys;
}

function pemKeys(text: string): TrustedKey[] {
  const blocks = text.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? [];
  return blocks.map((pem) => {
    const key = createPublicKey(pem);
    return { id: spkiId(key), key };
  });
}

function jwksKeys(text: string): TrustedKey[] {
  const parsed = JSON.parse(text) as unknown;
  const list = isObject(parsed) && Array.isArray(parsed.keys) ? parsed.keys : [];
  return list.filter(isObject).map((jwk) => {
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    return { id: typeof jwk.kid === 'string' && jwk.kid !== '' ? jwk.kid : spkiId(key), key };
  });
}

/** The id of a key named by none: the hex SHA-256 of its DER SubjectPublicKeyInfo. */
export function spkiId(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

function verifyBundle(bundle: Record<string, unknown>, settings: AttestationSettings): Verification {
  if (settings.sigstoreTrustedRoot === undefined)
    return {
      status: 'unverified',
      reason: 'no Sigstore trust root is configured (REG_SIGSTORE_TRUSTED_ROOT)',
    };
  let material: TrustMaterial;
  let thresholds: { tlogThreshold: number; ctlogThreshold: number; timestampThreshold: number };
  try {
    const root = TrustedRoot.fromJSON(JSON.parse(fs.readFileSync(settings.sigstoreTrustedRoot, 'utf8')));
    material = toTrustMaterial(root, trustedKeyFinder(settings));
    // The trust root says what evidence is expected: a transparency log entry when it names logs, a signed
    // certificate timestamp when it names CT logs, and a time (from either source) for certificates.
    thresholds = {
      tlogThreshold: root.tlogs.length > 0 ? 1 : 0,
      ctlogThreshold: root.ctlogs.length > 0 ? 1 : 0,
      timestampThreshold: root.tlogs.length > 0 || root.timestampAuthorities.length > 0 ? 1 : 0,
    };
  } catch (error) {
    return {
      status: 'unverified',
      reason: `the Sigstore trust root of REG_SIGSTORE_TRUSTED_ROOT cannot be read: ${(error as Error).message}`,
    };
  }
  try {
    const entity = toSignedEntity(bundleFromJSON(bundle));
    const signer = new Verifier(material, thresholds).verify(entity);
    const subject = signer.identity?.subjectAlternativeName;
    const issuer = signer.identity?.extensions?.issuer;
    const hint = isObject(bundle.verificationMaterial) ? bundle.verificationMaterial.publicKey : undefined;
    return {
      status: 'verified',
      method: 'sigstore',
      ...(subject === undefined ? {} : { subject }),
      ...(issuer === undefined ? {} : { issuer }),
      ...(isObject(hint) && typeof hint.hint === 'string' ? { key_id: hint.hint } : {}),
    };
  } catch (error) {
    return { status: 'failed', method: 'sigstore', reason: (error as Error).message };
  }
}

/** Keys a bundle signed with a public key (not a certificate) may name: those of `REG_ATTESTATION_KEYS`. */
function trustedKeyFinder(settings: AttestationSettings) {
  return (hint: string) => {
    const keys = settings.keysFile === undefined ? [] : readKeys(settings.keysFile);
    const found = keys.find((key) => key.id === hint);
    if (found === undefined) throw new Error(`no configured public key has the id ${hint}`);
    return { publicKey: found.key, validFor: () => true };
  };
}
