/** Reported by /healthz and /openapi.json. */
export const VERSION = "0.1.0";
