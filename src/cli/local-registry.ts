import { parseListen, type ListenAddress } from '../core/config/parse.js';
import { ConfigError } from '../core/errors.js';

/**
 * The URL at which this machine reaches the registry that `REG_LISTEN` (default 127.0.0.1:8080) makes listen:
 * a wildcard address is read as the loopback address of its family.
 */
export function localUrl(listen: string | undefined): string {
  let address: ListenAddress;
  try {
    address = parseListen(listen === undefined || listen.trim() === '' ? '127.0.0.1:8080' : listen);
  } catch (error) {
    throw new ConfigError(`REG_LISTEN ${(error as Error).message}.`);
  }
  const { host, port } = address;
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
