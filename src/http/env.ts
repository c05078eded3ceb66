import type { LargeWriteTurns } from './large-writes.js';
import type { Principal } from '../core/access/principal.js';
import type { Core } from '../core/core.js';

/** Variables every request carries through the Hono context. */
export interface AppEnv {
  Variables: {
    core: Core;
    requestId: string;
    principal: Principal;
    /** Turns of large writes, which the request body reader takes. */
    largeWrites?: LargeWriteTurns;
    /** Ends the turn of a large write (see `LargeWriteTurns`); set once the request took one. */
    endLargeWrite?: () => void;
  };
}
