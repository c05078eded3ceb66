/**
 * The JSON the registry returns for each kind of record, as far as the browsing pages read it. Optional members
 * are left out by the server when empty, so every page treats "absent" and "empty" alike.
 */

/** A vocabulary term as the registry describes it wherever a record cites one (types, topics). */
export interface TermRef {
  readonly iri: string;
  readonly label?: string;
  readonly definition?: string;
  readonly source?: string;
}

/** Publisher, contact, operator, producing system or user, creator. */
export interface Agent {
  readonly iri?: string;
  readonly name?: string;
  readonly kind?: string;
  readonly identifier?: string;
  readonly homepage?: string;
  readonly email?: string;
  readonly version?: string;
}

/** Where a record comes from: this registry, or a peer's cached stub. */
export interface Origin {
  /** `local` or `peer`. */
  readonly kind: string;
  readonly resolve_status?: string;
  readonly reason?: string;
}

export interface Capability {
  readonly produces?: readonly TermRef[];
  readonly consumes?: readonly TermRef[];
  readonly declared_at?: string;
}

interface Bookkeeping {
  readonly iri: string;
  readonly id: string;
  readonly created?: string;
  readonly modified?: string;
  readonly tombstoned?: boolean;
  readonly tombstoned_at?: string;
  readonly origin?: Origin;
}

export interface ApiDoc {
  readonly url: string;
  readonly format?: string;
  readonly title?: string;
  readonly description?: string;
}

export interface Software extends Bookkeeping {
  readonly name: string;
  readonly tagline?: string;
  readonly description?: string;
  readonly homepage?: string;
  readonly code_repository?: string;
  readonly documentation?: string;
  readonly download_url?: string;
  readonly image?: string;
  readonly screenshots?: readonly string[];
  readonly license?: string;
  readonly license_label?: string;
  readonly kinds?: readonly string[];
  readonly maturity?: string;
  readonly deployable?: boolean;
  readonly topics?: readonly TermRef[];
  readonly keywords?: readonly string[];
  readonly publisher?: Agent;
  readonly contact?: Agent;
  readonly readme?: string;
  readonly readme_base_url?: string;
  readonly api_docs?: readonly ApiDoc[];
  readonly registration_clients?: readonly string[];
  readonly registration_issuer?: string;
  readonly sync?: {
    readonly source?: string;
    readonly repo?: string;
    readonly fields?: readonly string[];
    readonly enabled?: boolean;
    readonly last_synced_at?: string;
    readonly last_status?: string;
    readonly last_error?: string;
    readonly last_changed?: readonly string[];
  };
  readonly capability?: Capability;
  readonly instance_count?: number;
  readonly release_count?: number;
  readonly latest_release?: {
    readonly iri: string;
    readonly version: string;
    readonly date_published?: string;
  };
}

export interface Download {
  readonly url?: string;
  readonly label?: string;
  readonly platform?: string;
  readonly byte_size?: number;
  readonly availability?: string;
}

export interface Release extends Bookkeeping {
  readonly version: string;
  readonly software: string;
  readonly software_name?: string;
  readonly date_published?: string;
  readonly container_image?: string;
  readonly image_digest?: string;
  readonly install_command?: string;
  readonly changelog?: string;
  readonly downloads?: readonly Download[];
  readonly capability?: Capability;
}

export interface Instance extends Bookkeeping {
  readonly label?: string;
  readonly description?: string;
  readonly software?: string;
  readonly software_name?: string;
  readonly release?: string;
  readonly release_version?: string;
  readonly latest_version?: string;
  readonly outdated?: boolean;
  readonly endpoint_url?: string;
  readonly endpoint_description?: string;
  readonly health_endpoint?: string;
  readonly operator?: Agent;
  readonly availability?: string;
  readonly jurisdiction?: string;
  readonly oidc_client_id?: string;
  readonly oidc_issuer?: string;
  readonly allowed_scopes?: readonly string[];
  readonly self_registered_by?: string;
  readonly self_registered_issuer?: string;
  readonly instance_key?: string;
  readonly health?: string;
  readonly health_detail?: string;
  readonly health_checked_at?: string;
  readonly last_seen_at?: string;
  readonly last_run_at?: string;
  readonly runs_30d?: number;
  readonly failures_30d?: number;
  readonly artifact_count?: number;
  readonly token_count?: number;
  readonly capability?: Capability;
}

/** An artifact as a run lists it: enough to link to it, or a foreign IRI not resolved yet. */
export interface ArtifactRef {
  readonly iri: string;
  readonly title?: string;
  readonly conforms_to?: string;
  readonly availability?: string;
  readonly origin?: Origin;
  readonly unresolved?: boolean;
}

export interface Run extends Bookkeeping {
  readonly label?: string;
  readonly external_key?: string;
  readonly status?: string;
  readonly started_at?: string;
  readonly ended_at?: string;
  readonly duration_seconds?: number;
  readonly instance?: string;
  readonly instance_label?: string;
  readonly software?: string;
  readonly software_name?: string;
  readonly release?: string;
  readonly release_version?: string;
  readonly used_count?: number;
  readonly generated_count?: number;
  readonly used?: readonly ArtifactRef[];
  readonly generated?: readonly ArtifactRef[];
  readonly openlineage_payload?: unknown;
}

export interface Distribution {
  readonly title?: string;
  readonly download_url?: string;
  readonly access_url?: string;
  readonly media_type?: string;
  readonly byte_size?: number;
  readonly checksum?: { readonly algorithm?: string; readonly value?: string };
  readonly content_identifier?: string;
  readonly access_protocol?: string;
  readonly auth_method?: string;
  readonly availability?: string;
  readonly access_request_url?: string;
  readonly conforms_to?: string;
  readonly license?: string;
  readonly access_service?: string;
}

export interface Artifact extends Bookkeeping {
  readonly title?: string;
  readonly description?: string;
  readonly conforms_to?: TermRef;
  readonly license?: string;
  readonly keywords?: readonly string[];
  readonly was_derived_from?: readonly string[];
  readonly was_revision_of?: readonly string[];
  readonly is_version_of?: readonly string[];
  readonly external_key?: string;
  readonly distributions?: readonly Distribution[];
  readonly produced_by?: Agent;
  readonly produced_by_user?: Agent;
  readonly creators?: readonly Agent[];
  readonly contributors?: readonly Agent[];
  readonly publisher?: Agent;
  readonly contact?: Agent;
  readonly attributed_to?: readonly string[];
  readonly was_generated_by?: string;
  readonly issued?: string;
  readonly version?: string;
  readonly landing_page?: string;
  readonly documentation?: string;
  readonly source?: string;
  readonly language?: readonly string[];
  readonly temporal_start?: string;
  readonly temporal_end?: string;
  readonly content_identifiers?: readonly string[];
  readonly availability?: string;
}

/** An artifact type as `/api/v1/types` lists it. */
export interface ArtifactType {
  readonly iri: string;
  readonly id: string;
  readonly label: string;
  readonly definition?: string;
  readonly default_media_type?: string;
  readonly artifact_count?: number;
  readonly adopted?: boolean;
  readonly source?: string;
}

/** One hit of the vocabulary search. */
export interface VocabHit extends TermRef {
  readonly branch?: string;
  readonly score?: number;
}

/** One hit of the free-text search across kinds. */
export interface SearchHit {
  readonly iri: string;
  readonly id?: string;
  readonly entity_type: string;
  readonly title?: string;
  readonly snippet?: string;
  readonly origin?: Origin;
  readonly score?: number;
}

/** One software, release or deployment that declared a capability (`/api/v1/capabilities`). */
export interface CapabilityMatch {
  readonly iri: string;
  readonly entity_type: string;
  readonly name?: string;
  readonly label?: string;
  readonly version?: string;
}
