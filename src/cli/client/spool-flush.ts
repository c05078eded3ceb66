import path from 'node:path';
import type { TypeJson } from '../../api/index.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { isTemporaryFailure, sendAdvertisement, type RetryPolicy } from './advertise.js';
import { ApiError } from './errors.js';
import { HttpClient, type JsonObject } from './http.js';
import type { Profile } from './profile.js';
import { RegistryClient } from './registry.js';
import { REFUSED_DIR, removeCall, setAside, spooledCalls, type SpooledCall } from './spool.js';

/** What became of one spooled call. */
export interface FlushedCall {
  readonly file: string;
  /** sent (and removed), refused or unreadable (moved to refused/), or kept for a later flush. */
  readonly outcome: 'sent' | 'refused' | 'unreadable' | 'kept';
  readonly run?: string;
  readonly artifacts?: string[];
  readonly created?: boolean;
  readonly reason?: string;
  readonly moved_to?: string;
}

/** The result of `reg advertise flush`. */
export interface FlushSummary {
  readonly spool: string;
  readonly found: number;
  readonly sent: number;
  /** Of those sent, how many the registry had recorded already (an earlier answer was lost). */
  readonly already_recorded: number;
  readonly refused: number;
  readonly kept: number;
  /** Why the flush stopped before the end, when it did (the registry unreachable, failing or refusing the credential). */
  readonly stopped?: string;
  /** The exit code the outcome calls for. */
  readonly exit_code: number;
  readonly calls: FlushedCall[];
}

/**
 * Sends the spooled calls of `dir` in the order they were spooled, each with its own run key (so a call the
 * registry recorded before its answer was lost is recorded once) and removes each one the registry
 * acknowledged. A refused or unreadable call is moved to `refused/` with its reason and the flush goes on; when
 * the registry is unreachable, fails or refuses the credential, the flush stops and keeps the rest.
 */
export async function flushSpool(
  profile: Profile,
  dir: string,
  policy: Pick<RetryPolicy, 'retries' | 'onRetry'>,
  onCall: (call: FlushedCall) => void = () => undefined,
): Promise<FlushSummary> {
  const entries = spooledCalls(dir);
  const registry = new RegistryClient(new HttpClient(profile));
  const calls: FlushedCall[] = [];
  const record = (call: FlushedCall): void => {
    calls.push(call);
    onCall(call);
  };
  let stopped: { reason: string; code: number } | undefined;
  for (const entry of entries) {
    if (stopped !== undefined) {
      record({ file: entry.file, outcome: 'kept' });
      continue;
    }
    if ('unreadable' in entry) {
      const moved = setAside(entry.file, entry.unreadable);
      record({ file: entry.file, outcome: 'unreadable', reason: entry.unreadable, moved_to: moved });
      continue;
    }
    try {
      const body = await withTypes(registry, entry.call);
      const answer = await sendAdvertisement(profile, entry.call.role, body, {
        ...policy,
        instanceKey: entry.call.instance_key,
      });
      removeCall(entry.file);
      record({
        file: entry.file,
        outcome: 'sent',
        run: answer.run,
        artifacts: [...answer.artifacts],
        created: answer.created,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const credential = error instanceof ApiError && (error.status === 401 || error.status === 403);
      if (isTemporaryFailure(error) || credential || !(error instanceof ApiError)) {
        stopped = { reason, code: exitCodeFor(error) };
        record({ file: entry.file, outcome: 'kept', reason });
        continue;
      }
      const moved = setAside(entry.file, reason);
      record({ file: entry.file, outcome: 'refused', reason, moved_to: moved });
    }
  }
  const count = (outcome: FlushedCall['outcome']): number =>
    calls.filter((call) => call.outcome === outcome).length;
  const refused = count('refused') + count('unreadable');
  return {
    spool: path.resolve(dir),
    found: entries.length,
    sent: count('sent'),
    already_recorded: calls.filter((call) => call.outcome === 'sent' && call.created === false).length,
    refused,
    kept: count('kept'),
    ...(stopped === undefined ? {} : { stopped: stopped.reason }),
    exit_code: stopped?.code ?? (refused > 0 ? EXIT.refused : EXIT.ok),
    calls,
  };
}

/** The call's body with the type slugs it was spooled with looked up now (the registry was unreachable then). */
async function withTypes(registry: RegistryClient, call: SpooledCall): Promise<JsonObject> {
  const slugs = call.type_slugs ?? [];
  if (slugs.length === 0) return call.body;
  const iris = new Map<string, string>();
  for (const slug of slugs) iris.set(slug, (await registry.get<TypeJson>('types', slug)).iri);
  const artifacts = Array.isArray(call.body.artifacts) ? (call.body.artifacts as unknown[]) : [];
  return {
    ...call.body,
    artifacts: artifacts.map((artifact) => {
      if (typeof artifact !== 'object' || artifact === null) return artifact;
      const type = (artifact as JsonObject).conforms_to;
      const iri = typeof type === 'string' ? iris.get(type) : undefined;
      return iri === undefined ? artifact : { ...artifact, conforms_to: iri };
    }),
  };
}

/** The folder refused calls are moved to, for messages. */
export const refusedFolder = (dir: string): string => path.join(path.resolve(dir), REFUSED_DIR);
