import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/** The bindings @hono/node-server passes to the app: the Node request, whose socket names the peer. */
interface NodeBindings {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
}

const plain = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * The address a request came from: the connection's peer, or, when that peer is one of the trusted proxies
 * (`REG_TRUSTED_PROXIES`), the nearest address in X-Forwarded-For that is not a trusted proxy itself (the
 * addresses further left are the client's word and could be anything). Undefined when the request did not come
 * over a socket or names no usable address.
 */
export function clientAddress(c: Context<AppEnv>, trustedProxies: readonly string[]): string | undefined {
  const peer = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress;
  if (peer === undefined) return undefined;
  const trusted = new Set(trustedProxies.map(plain));
  let address = plain(peer);
  if (!trusted.has(address)) return address;
  const forwarded = (c.req.header('x-forwarded-for') ?? '').split(',').map((part) => plain(part.trim()));
  while (trusted.has(address) && forwarded.length > 0) address = forwarded.pop() ?? '';
  return isIP(address) === 0 ? undefined : address;
}
