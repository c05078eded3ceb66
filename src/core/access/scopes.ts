/** Every scope a credential may carry; a deployment's `allowed_scopes` are drawn from these. */
export const SCOPES = [
  'register:software',
  'register:instance',
  'advertise:produce',
  'advertise:consume',
  'read:private',
  'subscribe:artifacts',
  'admin:*',
] as const;
