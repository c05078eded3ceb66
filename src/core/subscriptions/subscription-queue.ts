import { v7 as uuidv7 } from 'uuid';
import { ARTIFACT } from '../records/activity-specs.js';
import type { JsonObject } from '../records/mapper.js';
import { INSTANCE } from '../records/specs.js';
import { insertDelivery } from '../store/deliveries.js';
import { listMatchableSubscriptions, subscriptionGeneration, touchMatched } from '../store/subscriptions.js';
import type { Core } from '../core.js';
import { readStored } from '../stored/records.js';
import {
  artifactFacts,
  compileFilter,
  matchesFilter,
  type ArtifactFacts,
  type CompiledFilter,
  type DeliveryRole,
  type SubscriptionFilter,
} from './subscription-filter.js';

/**
 * Matching advertised artifacts against subscriptions, inside the advertising transaction, so an acknowledged
 * advertisement always has its deliveries queued. The enabled subscriptions are compiled once and kept in the
 * core's memo, stamped with the subscription generation counter (bumped by triggers on any change that matters
 * here), so each commit costs one one-row read plus a few set lookups per artifact and subscription.
 */

/** One enabled subscription, ready for matching. */
interface Matcher {
  readonly id: string;
  readonly owner: string;
  readonly filter: CompiledFilter;
  /** Whether the webhook worker should try its deliveries (a webhook is set and not suspended). */
  readonly webhook: boolean;
}

const MEMO_KEY = 'subscriptions: compiled filters';

function matchers(core: Core): readonly Matcher[] {
  const generation = subscriptionGeneration(core.db);
  const cached = core.memo.get<readonly Matcher[]>(MEMO_KEY, generation);
  if (cached !== undefined) return cached;
  const compiled = listMatchableSubscriptions(core.db).map((row) => ({
    id: row.id,
    owner: row.instance_iri,
    filter: compileFilter(JSON.parse(row.filter) as SubscriptionFilter),
    webhook: row.has_webhook === 1 && row.delivery_state === 'active',
  }));
  core.memo.set(MEMO_KEY, generation, compiled);
  return compiled;
}

/** Everything about one act of advertising that matching needs, gathered before the commit. */
export interface AdvertisedArtifacts {
  readonly role: DeliveryRole;
  readonly run: string | null;
  readonly instance: string | null;
  readonly software: string | null;
  readonly facts: ReadonlyMap<string, ArtifactFacts>;
}

/** What the advertising path knows before its commit. */
export interface AdvertisingAct {
  readonly role: DeliveryRole;
  readonly run: string | null;
  readonly instance: string | null;
  /** The deployment's software, when the caller has read the deployment (else it is read here). */
  readonly software?: string | null;
  /** Every artifact IRI the act names. */
  readonly artifacts: readonly string[];
  /** The candidates of the artifacts the act creates, by IRI; others are read from the store if needed. */
  readonly candidates: ReadonlyMap<string, JsonObject>;
}

/** The software of a deployment, if it has one. */
async function softwareOf(core: Core, instance: string | null): Promise<string | null> {
  const stored = instance === null ? undefined : await readStored(core, INSTANCE, instance);
  return typeof stored?.json.software === 'string' ? stored.json.software : null;
}

/**
 * Gathers the facts filters look at: the advertising deployment's software, and each artifact's type, licence,
 * keywords, availability and text. Artifacts the act creates are described by their candidates; artifacts that
 * exist already are read only when some subscription is enabled (otherwise nothing will be matched).
 */
export async function prepareDeliveries(core: Core, act: AdvertisingAct): Promise<AdvertisedArtifacts> {
  const software = act.software !== undefined ? act.software : await softwareOf(core, act.instance);
  const reading = matchers(core).length > 0;
  const facts = new Map<string, ArtifactFacts>();
  for (const iri of act.artifacts) {
    if (facts.has(iri)) continue;
    const candidate = act.candidates.get(iri);
    const json = candidate ?? (reading ? (await readStored(core, ARTIFACT, iri))?.json : undefined);
    facts.set(iri, artifactFacts(iri, json));
  }
  return { role: act.role, run: act.run, instance: act.instance, software, facts };
}

/**
 * Queues a delivery for every pair of a newly claimed artifact and an enabled subscription whose filter it
 * matches. Call inside the commit transaction; returns how many deliveries were queued.
 */
export function queueDeliveries(
  core: Core,
  advertised: AdvertisedArtifacts,
  claimed: readonly string[],
  now: string,
): number {
  if (claimed.length === 0) return 0;
  const active = matchers(core);
  if (active.length === 0) return 0;
  const matched = new Set<string>();
  let queued = 0;
  for (const iri of new Set(claimed)) {
    const artifact = advertised.facts.get(iri) ?? artifactFacts(iri, undefined);
    const event = {
      role: advertised.role,
      instance: advertised.instance,
      software: advertised.software,
      artifact,
    };
    for (const matcher of active) {
      if (!matchesFilter(matcher.filter, matcher.owner, event)) continue;
      insertDelivery(core.db, {
        id: uuidv7(),
        subscription_id: matcher.id,
        artifact_iri: iri,
        run_iri: advertised.run,
        role: advertised.role,
        instance_iri: advertised.instance,
        software_iri: advertised.software,
        matched_at: now,
        next_attempt_at: matcher.webhook ? now : null,
      });
      matched.add(matcher.id);
      queued++;
    }
  }
  for (const id of matched) touchMatched(core.db, id, now);
  return queued;
}
