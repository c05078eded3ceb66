import type { Principal } from '../access/principal.js';
import { TooManyQueriesError } from '../errors.js';
import { clientNetwork } from '../net/client-network.js';

/**
 * Counts the SPARQL queries each caller has under way and refuses one more than the limit (429), so that one
 * client cannot queue up the query service for everyone else.
 */
export class CallerGate {
  private readonly running = new Map<string, number>();

  /**
   * Admits one query of `caller` (see `callerOf`), or throws `TooManyQueriesError`; returns the function that
   * ends it, to be called once the answer is ready or the query failed.
   */
  enter(caller: string, limit: number, retryAfterSeconds: number): () => void {
    const under = this.running.get(caller) ?? 0;
    if (under >= limit) throw new TooManyQueriesError(limit, retryAfterSeconds);
    this.running.set(caller, under + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const rest = (this.running.get(caller) ?? 1) - 1;
      if (rest <= 0) this.running.delete(caller);
      else this.running.set(caller, rest);
    };
  }
}

/**
 * Who a query is counted against: the credential's subject, or for anonymous callers their network: an IPv4
 * address, or an IPv6 /64 (what one host is usually given, so that it cannot count as many callers). Every
 * anonymous caller whose address is unknown shares one count.
 */
export function callerOf(principal: Principal, address: string | undefined): string {
  return principal.authenticated ? `subject ${principal.subject}` : `network ${clientNetwork(address)}`;
}
