import type { JWTPayload } from 'jose';

/** A trusted publisher as stored: where it sits, what it binds, and the claim patterns a token must match. */
export interface PublisherBinding {
  /** The binding node, `<record>#trusted-publisher-<n>`. */
  readonly iri: string;
  /** The software or deployment carrying it. */
  readonly owner: string;
  readonly ownerKind: 'software' | 'instance';
  /** The software of the deployment it binds (the owner itself for a software binding). */
  readonly software: string | null;
  readonly issuer: string;
  /** Claim names and their patterns, in the order the binding lists them. */
  readonly claims: readonly (readonly [claim: string, pattern: string])[];
  /** On a software binding, the claim whose value keys the deployment. */
  readonly deploymentKey: string | undefined;
}

/** A claim of a binding that the token did not satisfy. */
export interface ClaimMismatch {
  readonly claim: string;
  readonly pattern: string;
  /** The token's value as text, or undefined when the token does not carry the claim as text. */
  readonly value: string | undefined;
}

/** How one binding judged one token: the claims that matched and those that did not. */
export interface BindingVerdict {
  readonly binding: PublisherBinding;
  readonly matched: Readonly<Record<string, string>>;
  readonly mismatches: readonly ClaimMismatch[];
  /** On a software binding, the deployment key the token gives (the value of its `deploymentKey` claim). */
  readonly key: string | undefined;
}

/** The longest deployment key accepted from a token. */
const MAX_KEY_LENGTH = 200;

/**
 * Whether `value` matches a claim pattern: exact text, where each `*` stands for any run of characters
 * (`/` included, so `refs/tags/v*` and `org/tool/.github/workflows/release.yml@*` work) and nothing else is special.
 */
export function claimMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}$`, 'u').test(value);
}

/** A claim's value as text: strings as they are, numbers and booleans written out; lists and objects have none. */
export function claimText(claims: JWTPayload, name: string): string | undefined {
  if (!Object.hasOwn(claims, name)) return undefined;
  const value = claims[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Judges a token's claims against one binding, claim by claim, including the claim that keys its deployment. */
export function judgeBinding(binding: PublisherBinding, claims: JWTPayload): BindingVerdict {
  const matched: Record<string, string> = {};
  const mismatches: ClaimMismatch[] = [];
  for (const [claim, pattern] of binding.claims) {
    const value = claimText(claims, claim);
    if (value !== undefined && claimMatches(pattern, value)) matched[claim] = value;
    else mismatches.push({ claim, pattern, value });
  }
  let key: string | undefined;
  if (binding.deploymentKey !== undefined) {
    const value = claimText(claims, binding.deploymentKey)?.trim();
    if (value === undefined || value === '' || value.length > MAX_KEY_LENGTH) {
      mismatches.push({ claim: binding.deploymentKey, pattern: '*', value });
    } else {
      key = value;
      matched[binding.deploymentKey] = value;
    }
  }
  return { binding, matched, mismatches, key };
}

/**
 * The binding that came closest to matching: the one with the most claims matched (the first listed on a tie).
 * Its first differing claim is what a refusal names.
 */
export function nearestMiss(verdicts: readonly BindingVerdict[]): BindingVerdict | undefined {
  let best: BindingVerdict | undefined;
  for (const verdict of verdicts) {
    if (best === undefined || Object.keys(verdict.matched).length > Object.keys(best.matched).length)
      best = verdict;
  }
  return best;
}

/** The sentence naming the nearest binding and the claim that differed; it never repeats the token. */
export function missSentence(issuer: string, verdict: BindingVerdict): string {
  const { binding } = verdict;
  const [first, ...others] = verdict.mismatches;
  const where = `${binding.ownerKind === 'software' ? 'the software' : 'the deployment'} ${binding.owner} ${fieldOf(binding.iri)}`;
  const more =
    others.length === 0 ? '' : ` (and ${others.length} more claim${others.length === 1 ? '' : 's'})`;
  let differs = '';
  if (first !== undefined) {
    const has = first.value === undefined ? 'carries no such claim' : `has ${quoted(first.value)}`;
    differs =
      first.claim === binding.deploymentKey && first.pattern === '*'
        ? `: its deployment_key claim ${first.claim} names the deployment, but the token ${has}`
        : `: its claim ${first.claim} must match ${quoted(first.pattern)}, but the token ${has}`;
  }
  return `no trusted publisher matches this workload token of ${issuer}; the nearest is ${where}${differs}${more}`;
}

/** `trusted_publishers[<n>]` for a binding node `<record>#trusted-publisher-<n>`. */
export function fieldOf(bindingIri: string): string {
  const index = /#trusted-publisher-(\d+)$/.exec(bindingIri)?.[1];
  return index === undefined ? 'trusted_publishers' : `trusted_publishers[${index}]`;
}

/** A token's or binding's value made safe for a one-line message: quoted, no control characters, bounded. */
function quoted(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return JSON.stringify(clean.length > 200 ? `${clean.slice(0, 200)}…` : clean);
}
