import type { LargeWriteTurns } from './large-writes.js';
import type { Principal } from '../core/access/principal.js';
import type { Core } from '../core/core.js';
import type { Act } from '../core/stored/write-path.js';

/** Variables every request carries through the Hono context. */
export interface AppEnv {
  Variables: {
    core: Core;
    requestId: string;
    principal: Principal;
    /** The request as one act of its caller: what every write service receives (set after authentication). */
    act: Act;
    /** Turns of large writes, which the request body reader takes. */
    largeWrites?: LargeWriteTurns;
    /** Ends the turn of a large write (see `LargeWriteTurns`); set once the request took one. */
    endLargeWrite?: () => void;
  };
}
