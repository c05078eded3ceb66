/** Subscriptions as the registry returns them. */

export interface SubscriptionFilter {
  readonly conforms_to?: readonly string[];
  readonly software?: readonly string[];
  readonly instance?: readonly string[];
  readonly keywords?: readonly string[];
  readonly license?: readonly string[];
  readonly availability?: readonly string[];
  readonly q?: string | null;
  readonly roles?: readonly string[];
  readonly exclude_own?: boolean;
}

export interface Subscription {
  readonly id: string;
  readonly label: string | null;
  readonly filter: SubscriptionFilter;
  readonly webhook_url: string | null;
  readonly enabled: boolean;
  readonly delivery_state: 'active' | 'suspended';
  readonly delivery_mode: 'pull' | 'webhook';
  readonly consecutive_failures: number;
  readonly pending_count: number;
  readonly failed_count: number;
  readonly dead_count: number;
  readonly unacked_count: number;
  readonly last_error: string | null;
  readonly last_match_at: string | null;
  readonly last_success_at: string | null;
  readonly created_at: string;
  readonly pull_url: string;
}

export interface Delivery {
  readonly seq: number;
  readonly id: string;
  readonly artifact_iri: string;
  readonly role: string;
  readonly matched_at: string;
  readonly status: string;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly delivered_at: string | null;
}

export interface Created {
  readonly subscription: Subscription;
  readonly secret: string | null;
}
