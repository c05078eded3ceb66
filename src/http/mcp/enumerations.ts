import { LINEAGE_ANSWER, SUBSCRIPTION, SUBSCRIPTION_FILTER } from '../../api/index.js';
import { VOCAB_BRANCHES } from '../../core/discovery/vocab-search.js';
import { ACCESS_PROTOCOLS, AUTH_METHODS, RUN_STATUSES } from '../../core/records/activity-specs.js';
import { DEREFERENCEABLE, SEARCH_KINDS } from '../../core/records/kind-registry.js';
import {
  API_FORMATS,
  AVAILABILITY,
  HEALTH,
  SCOPES,
  SOFTWARE,
  SOFTWARE_KINDS,
  SYNC_FIELDS,
} from '../../core/records/specs.js';
import { BASIS_MATCHES_ANSWER } from '../routes/impact.js';

/** One set of values: what it is for, and its values (absent for a field that takes free text). */
export interface Enumeration {
  readonly description: string;
  readonly values?: readonly string[];
  readonly free_text?: true;
}

/**
 * The closed sets of values the registry uses, each taken from the declaration the code itself checks against
 * (record specs, kind registry, API shapes), so the list never drifts from what a write accepts.
 */
export function enumerations(): Record<string, Enumeration> {
  const maturity = SOFTWARE.fields.find((field) => field.json === 'maturity');
  return {
    software_kind: { description: 'software `kinds`', values: SOFTWARE_KINDS },
    maturity:
      maturity !== undefined && 'values' in maturity && maturity.values !== undefined
        ? { description: 'software `maturity`', values: maturity.values }
        : { description: 'software `maturity`: one word of free text, such as active', free_text: true },
    availability: {
      description: '`availability` of deployments, distributions and release downloads',
      values: AVAILABILITY,
    },
    health: { description: "a deployment's `health` as last probed", values: HEALTH },
    run_status: { description: 'run `status`', values: RUN_STATUSES },
    access_protocol: { description: "a distribution's `access_protocol`", values: ACCESS_PROTOCOLS },
    auth_method: { description: "a distribution's `auth_method`", values: AUTH_METHODS },
    api_format: { description: "the `format` of an entry of a software's `api_docs`", values: API_FORMATS },
    sync_field: {
      description: "the fields a repository sync may manage (a software's `sync.fields`)",
      values: SYNC_FIELDS,
    },
    scope: {
      description: "credential scopes (a deployment's `allowed_scopes`, a token's `scopes`)",
      values: SCOPES,
    },
    vocab_branch: {
      description: 'the branches of the vocabulary (`vocab_search` branch)',
      values: VOCAB_BRANCHES,
    },
    record_kind: {
      description: 'the kinds of record `get_record` reads',
      values: [...DEREFERENCEABLE.keys()],
    },
    search_kind: {
      description: 'the kinds of record `search_registry` finds (its `type`)',
      values: SEARCH_KINDS,
    },
    lineage_direction: {
      description: 'the `direction` of `get_artifact_lineage`',
      values: LINEAGE_ANSWER.properties.direction.enum,
    },
    subscription_role: {
      description: 'the `roles` of a subscription filter',
      values: SUBSCRIPTION_FILTER.properties.roles.items.enum,
    },
    delivery_mode: {
      description: "a subscription's `delivery_mode`",
      values: SUBSCRIPTION.properties.delivery_mode.enum,
    },
    subscription_format: {
      description: "a subscription's webhook body (`format` of `create_subscription`)",
      values: SUBSCRIPTION.properties.format.enum,
    },
    subscription_signature: {
      description:
        "how a subscription's webhook deliveries are signed (`signature` of `create_subscription`)",
      values: SUBSCRIPTION.properties.signature.enum,
    },
    match_basis: {
      description:
        'what `find_capable_software` matches on (its `basis`): declarations, what runs did, or both',
      values: BASIS_MATCHES_ANSWER.properties.basis.enum,
    },
  };
}
