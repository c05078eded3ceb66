import type { Principal } from '../core/auth/principal.js';
import type { Core } from '../core/core.js';

/** Variables every request carries through the Hono context. */
export interface AppEnv {
  Variables: {
    core: Core;
    requestId: string;
    principal: Principal;
  };
}
