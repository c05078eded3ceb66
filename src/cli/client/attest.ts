import type { HttpClient } from './http.js';
import { readJsonFile } from './input.js';

/** The outcome of the signature check the registry recorded. */
export interface VerificationJson {
  readonly status: 'verified' | 'unverified' | 'failed';
  readonly method?: 'dsse' | 'sigstore';
  readonly key_id?: string;
  readonly subject?: string;
  readonly issuer?: string;
  readonly reason?: string;
}

/** The registry's answer to an attestation: what it was recorded as, and how its signature checked out. */
export interface AttestationJson {
  readonly id: string;
  readonly href: string;
  readonly kind: string;
  readonly predicate_type: string;
  readonly media_type: string;
  readonly verification: VerificationJson;
  readonly run?: string;
  readonly build?: Record<string, unknown>;
  readonly artifacts: string[];
  readonly used?: string[];
  readonly replayed: boolean;
}

/** Sends the attestation in `file` (an in-toto statement, a DSSE envelope or a Sigstore bundle; `-` for stdin). */
export async function sendAttestation(http: HttpClient, file: string): Promise<AttestationJson> {
  const body = await readJsonFile(file);
  return http.request<AttestationJson>('POST', '/api/v1/attestations', { body });
}

/** One line saying how the signature checked out. */
export function verificationLine(verification: VerificationJson): string {
  switch (verification.status) {
    case 'verified': {
      const by =
        verification.subject !== undefined
          ? `${verification.subject}${verification.issuer === undefined ? '' : ` (issuer ${verification.issuer})`}`
          : `key ${verification.key_id ?? '?'}`;
      return `verified (${verification.method ?? '?'}) by ${by}`;
    }
    case 'unverified':
      return `unverified: ${verification.reason ?? 'no signature was checked'}`;
    case 'failed':
      return `FAILED (${verification.method ?? '?'}): ${verification.reason ?? 'the signature does not verify'}`;
  }
}
