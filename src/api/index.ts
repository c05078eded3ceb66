/**
 * The JSON shapes of the registry's HTTP API, declared once: the server describes them (OpenAPI), the CLI client
 * and the web page read their answers with them, and the tests hold the server to them. Nothing here imports
 * Node, so the web page's build takes the types (and, if it needs them, the schemas) as they are.
 */
export * from './envelopes.js';
export * from './json-schema.js';
export * from './record-schema.js';
export * from './records.js';
export * from './operations.js';
