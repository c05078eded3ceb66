/**
 * The deployment manifests under deploy/, checked offline: every YAML file parses; the Compose files validate
 * against the Compose Specification's JSON schema and their environment is one `reg serve` accepts; the
 * Kustomize base is rendered with `kubectl kustomize` where kubectl is installed (and read file by file in any
 * case); the systemd unit passes `systemd-analyze verify` where systemd is installed and has the sandbox it
 * promises; Virtuoso's configuration fits the registry's query limits (and is run where Virtuoso is installed).
 * The manifests must agree with each other and with the registry: one image, port 8080, UID 65532, the body
 * limit, the settings' names, the exit codes.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { EXIT } from '../../src/cli/exit-codes.js';
import { readConfig, SETTINGS } from '../../src/core/config/index.js';
import { parseByteSize, parseDuration } from '../../src/core/config/parse.js';
import { ConfigError } from '../../src/core/errors.js';
import { ROOT } from '../helpers.js';

const DEPLOY = path.join(ROOT, 'deploy');
const KUSTOMIZE_BASE = path.join(DEPLOY, 'kubernetes');
const COMPONENT = path.join(KUSTOMIZE_BASE, 'components', 'servicemonitor');
const COMPOSE_SCHEMA = path.join(ROOT, 'test', 'fixtures', 'compose-spec', 'compose-spec.json');

/** The image every manifest runs, at its minor tag. */
const IMAGE = 'ghcr.io/reg-registry/reg:0.1';
/** What the image is built to do: its user, its port, its only writable directory, its entry point. */
const IMAGE_UID = 65532;
const IMAGE_PORT = 8080;
const IMAGE_DATA_DIR = '/data';
const IMAGE_CLI = '/app/bin/run.js';
const NAMESPACE = 'reg';
/** How long `reg serve` lets requests in flight finish after SIGTERM (src/http/server.ts, close()). */
const SERVER_GRACE_MS = 10_000;
/** A root token the registry accepts, standing in for the operator's. */
const SAMPLE_TOKEN = '7f3c9a0e5b21d84c6e0f1a2b3c4d5e6f';
const SAMPLE_BASE_IRI = 'https://registry.example.org';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = Record<string, any>;

function read(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

function yamlFile(file: string): Obj {
  return parseYaml(read(file)) as Obj;
}

/** Every file under a directory, relative to it. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The documented default of a setting. */
function fallback(name: string): string {
  const spec = SETTINGS.find((setting) => setting.name === name);
  if (spec?.fallback === undefined) throw new Error(`${name} has no default`);
  return spec.fallback;
}

const KNOWN_SETTINGS = new Set(SETTINGS.map((setting) => setting.name));

/** Names of REG_* variables that are not settings of the registry. */
function unknownSettings(names: Iterable<string>): string[] {
  return [...names].filter((name) => name.startsWith('REG_') && !KNOWN_SETTINGS.has(name));
}

/** The message of the ConfigError `readConfig` throws for an environment, or undefined when it accepts it. */
function configRefusal(env: Record<string, string>): string | undefined {
  try {
    readConfig(env, '/');
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

/** Whether a program is on PATH. */
function onPath(program: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && fs.existsSync(path.join(dir, program)));
}

// ---------------------------------------------------------------------------------------------------------------
// Compose: interpolation as the Compose Specification defines it (${VAR}, ${VAR:-default}, ${VAR-default},
// ${VAR:?error}, ${VAR?error}, $VAR, $$), and the merge of an override file's mappings.

class InterpolationError extends Error {}

function interpolate(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, braced?: string, op?: string, arg?: string, bare?: string) => {
      if (match === '$$') return '$';
      const name = (braced ?? bare)!;
      const value = vars[name];
      const missing = value === undefined || (op?.startsWith(':') === true && value === '');
      if (op === undefined) return value ?? '';
      if (op.endsWith('-')) return missing ? (arg ?? '') : value;
      if (missing) throw new InterpolationError(`${name}: ${arg ?? ''}`);
      return value;
    },
  );
}

function interpolateAll(value: Json, vars: Readonly<Record<string, string>>): Json {
  if (typeof value === 'string') return interpolate(value, vars);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, vars));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, vars)]));
  return value;
}

function isMapping(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mergeMappings(base: Obj, override: Obj): Obj {
  const merged: Obj = { ...base };
  for (const [key, value] of Object.entries(override))
    merged[key] = isMapping(merged[key]) && isMapping(value) ? mergeMappings(merged[key], value) : value;
  return merged;
}

/** The model Compose works from: the files merged in order, then interpolated. */
function composeModel(files: string[], vars: Readonly<Record<string, string>>): Obj {
  const merged = files.map((file) => yamlFile(path.join(DEPLOY, file))).reduce(mergeMappings, {});
  return interpolateAll(merged, vars) as Obj;
}

/** The variables an operator's deploy/.env holds. */
const DOT_ENV = {
  REG_BASE_IRI: SAMPLE_BASE_IRI,
  REG_ROOT_TOKEN: SAMPLE_TOKEN,
  VIRTUOSO_DBA_PASSWORD: 'b6f0c1d2e3a4958677a8b9c0',
};

function stringEnvironment(environment: unknown): Record<string, string> {
  expect(isMapping(environment), 'environment is a mapping').toBe(true);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment as Obj)) env[name] = String(value);
  return env;
}

// ---------------------------------------------------------------------------------------------------------------
// INI files: Virtuoso's configuration and systemd units (sections of key=value lines, each key may repeat).

type IniFile = Map<string, Map<string, string[]>>;

function parseIni(text: string, comment: RegExp): IniFile {
  const sections: IniFile = new Map();
  let current: Map<string, string[]> | undefined;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || comment.test(line)) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header !== null) {
      current = sections.get(header[1]!) ?? new Map<string, string[]>();
      sections.set(header[1]!, current);
      continue;
    }
    const entry = /^([A-Za-z_][\w.]*)\s*=\s*(.*)$/.exec(line);
    if (entry === null || current === undefined)
      throw new Error(`line ${index + 1} is not key = value: ${raw}`);
    if (entry[2]!.endsWith('\\'))
      throw new Error(`line ${index + 1} continues: keep each setting on one line`);
    current.set(entry[1]!, [...(current.get(entry[1]!) ?? []), entry[2]!.trim()]);
  }
  return sections;
}

function iniValue(file: IniFile, section: string, key: string): string {
  const values = file.get(section)?.get(key);
  if (values === undefined) throw new Error(`[${section}] ${key} is not set`);
  return values[values.length - 1]!;
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes objects.

function objectsOf(text: string): Obj[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS() as Obj | null)
    .filter((object): object is Obj => object !== null);
}

function only(objects: Obj[], kind: string): Obj {
  const found = objects.filter((object) => object.kind === kind);
  expect(found.map((object) => object.kind)).toEqual([kind]);
  return found[0]!;
}

/** The environment a container of a pod gets, ConfigMaps and Secrets read from the given objects. */
function containerEnvironment(
  container: Obj,
  configMaps: Obj[],
  secrets: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of (container.envFrom ?? []) as Obj[]) {
    const map = configMaps.find((object) => object.metadata.name === from.configMapRef?.name);
    expect(map, `ConfigMap ${from.configMapRef?.name}`).toBeDefined();
    Object.assign(env, map!.data);
  }
  for (const variable of (container.env ?? []) as Obj[]) {
    if (variable.value !== undefined) env[variable.name] = String(variable.value);
    else if (variable.valueFrom?.secretKeyRef !== undefined) {
      const key = `${variable.valueFrom.secretKeyRef.name}/${variable.valueFrom.secretKeyRef.key}`;
      expect(secrets[key], `secret ${key}`).toBeDefined();
      env[variable.name] = secrets[key]!;
    } else throw new Error(`${variable.name}: only values and secret keys are expected`);
  }
  return env;
}

/** Bytes of an nginx size (`2m`: nginx's k and m are 1024 and 1024²). */
function nginxBytes(size: string): number {
  const match = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (match === null) throw new Error(`not an nginx size: ${size}`);
  const factor = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase()]!;
  return Number(match[1]) * factor;
}

/** The checks every rendering of the Deployment must pass, whether read from its file or from kustomize. */
function checkDeployment(deployment: Obj): void {
  expect(deployment.spec.replicas).toBe(1);
  expect(deployment.spec.strategy).toEqual({ type: 'Recreate' });
  const pod = deployment.spec.template.spec as Obj;
  expect(deployment.spec.selector.matchLabels).toEqual(
    expect.objectContaining({ 'app.kubernetes.io/name': 'reg' }),
  );
  for (const [label, value] of Object.entries(deployment.spec.selector.matchLabels as Obj))
    expect(deployment.spec.template.metadata.labels[label], label).toBe(value);
  expect(pod.enableServiceLinks).toBe(false);
  expect(pod.automountServiceAccountToken).toBe(false);
  expect(pod.securityContext).toEqual(
    expect.objectContaining({
      runAsNonRoot: true,
      runAsUser: IMAGE_UID,
      runAsGroup: IMAGE_UID,
      fsGroup: IMAGE_UID,
      seccompProfile: { type: 'RuntimeDefault' },
    }),
  );
  expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(SERVER_GRACE_MS * 2);
  expect(pod.containers).toHaveLength(1);
  const container = pod.containers[0] as Obj;
  expect(container.args).toEqual(['serve']);
  expect(container.ports).toEqual([{ name: 'http', containerPort: IMAGE_PORT, protocol: 'TCP' }]);
  expect(container.securityContext).toEqual(
    expect.objectContaining({
      runAsNonRoot: true,
      runAsUser: IMAGE_UID,
      runAsGroup: IMAGE_UID,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    }),
  );
  expect(container.securityContext.privileged ?? false).toBe(false);
  expect(container.securityContext.capabilities.add).toBeUndefined();
  // Probes on the named port, which is the image's 8080.
  expect(container.startupProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
  expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
  expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
  // A large index may take minutes to load: at least ten of them before the pod is restarted.
  const startupSeconds = container.startupProbe.periodSeconds * container.startupProbe.failureThreshold;
  expect(startupSeconds).toBeGreaterThanOrEqual(600);
  for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
    expect(container[probe].timeoutSeconds, probe).toBeGreaterThanOrEqual(2);
  for (const kind of ['requests', 'limits'] as const) {
    expect(container.resources[kind].cpu, kind).toBeDefined();
    expect(container.resources[kind].memory, kind).toBeDefined();
  }
  // The only writable place is the data directory, on the claim.
  expect(container.volumeMounts).toEqual([{ name: 'data', mountPath: IMAGE_DATA_DIR }]);
  expect(pod.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'reg-data' } }]);
  const env = Object.fromEntries((container.env as Obj[]).map((variable) => [variable.name, variable]));
  expect(env.REG_LISTEN?.value).toBe(`0.0.0.0:${IMAGE_PORT}`);
  expect(env.REG_DATA_DIR?.value).toBe(IMAGE_DATA_DIR);
  expect(env.REG_ROOT_TOKEN?.valueFrom).toEqual({
    secretKeyRef: { name: 'reg-root-token', key: 'REG_ROOT_TOKEN' },
  });
  expect(container.envFrom).toHaveLength(1);
  expect(container.envFrom[0].configMapRef.name).toMatch(/^reg-config(-[a-z0-9]+)?$/);
  expect(unknownSettings(Object.keys(env))).toEqual([]);
}

function checkService(service: Obj, podLabels: Obj): void {
  expect(service.spec.type ?? 'ClusterIP').toBe('ClusterIP');
  for (const [label, value] of Object.entries(service.spec.selector as Obj))
    expect(podLabels[label], label).toBe(value);
  expect(service.spec.ports).toEqual([
    { name: 'http', port: IMAGE_PORT, targetPort: 'http', protocol: 'TCP' },
  ]);
}

function checkIngress(ingress: Obj, service: Obj): void {
  const annotations = ingress.metadata.annotations as Obj;
  expect(annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('2m');
  // The proxy lets through exactly what the registry accepts.
  expect(nginxBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'])).toBe(
    parseByteSize(fallback('REG_MAX_PAYLOAD_BYTES')),
  );
  // The proxy waits longer than the registry's own query limit, so the registry's 504 arrives.
  expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']) * 1000).toBeGreaterThan(
    parseDuration(fallback('REG_SPARQL_TIMEOUT')),
  );
  expect(ingress.spec.ingressClassName).toBe('nginx');
  const backends = (ingress.spec.rules as Obj[]).flatMap((rule) =>
    (rule.http.paths as Obj[]).map((entry) => entry.backend.service as Obj),
  );
  expect(backends.length).toBeGreaterThan(0);
  for (const backend of backends) {
    expect(backend.name).toBe(service.metadata.name);
    expect((service.spec.ports as Obj[]).map((port) => port.name)).toContain(backend.port.name);
  }
  const hosts = (ingress.spec.rules as Obj[]).map((rule) => rule.host as string);
  expect(ingress.spec.tls[0].hosts).toEqual(hosts);
}

function checkClaim(claim: Obj): void {
  expect(claim.spec.accessModes).toEqual(['ReadWriteOnce']);
  expect(claim.spec.resources.requests.storage).toMatch(/^\d+Gi$/);
}

function checkServiceMonitor(monitor: Obj, service: Obj): void {
  expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
  for (const [label, value] of Object.entries(monitor.spec.selector.matchLabels as Obj))
    expect(service.metadata.labels[label], label).toBe(value);
  expect(monitor.spec.endpoints).toHaveLength(1);
  const endpoint = monitor.spec.endpoints[0] as Obj;
  expect(endpoint.path).toBe('/metrics');
  expect((service.spec.ports as Obj[]).map((port) => port.name)).toContain(endpoint.port);
  expect(parseDuration(endpoint.scrapeTimeout)).toBeLessThan(parseDuration(endpoint.interval));
}

// ---------------------------------------------------------------------------------------------------------------

describe('deploy/: every file', () => {
  const files = filesUnder(DEPLOY);

  it('holds the manifests the README describes, and the README names each of them', () => {
    const readme = read(path.join(DEPLOY, 'README.md'));
    expect(files.length).toBeGreaterThanOrEqual(14);
    for (const file of files.filter((name) => name !== 'README.md')) expect(readme, file).toContain(file);
  });

  it('parses every YAML file without errors, warnings or repeated keys', () => {
    const yamlFiles = files.filter((file) => /\.ya?ml$/.test(file));
    expect(yamlFiles.length).toBeGreaterThanOrEqual(11);
    for (const file of yamlFiles) {
      const documents = parseAllDocuments(read(path.join(DEPLOY, file)), { uniqueKeys: true });
      expect(documents.length, file).toBeGreaterThan(0);
      for (const document of documents) {
        expect(
          document.errors.map((error) => error.message),
          file,
        ).toEqual([]);
        expect(
          document.warnings.map((warning) => warning.message),
          file,
        ).toEqual([]);
        expect(isMapping(document.toJS()), file).toBe(true);
      }
    }
  });

  it('commits no root token the registry would accept: only placeholders it refuses', () => {
    const placeholders = [
      yamlFile(path.join(KUSTOMIZE_BASE, 'secret.example.yaml')).stringData.REG_ROOT_TOKEN as string,
      /^REG_ROOT_TOKEN=(.*)$/m.exec(read(path.join(DEPLOY, 'systemd', 'reg.env.example')))![1]!,
    ];
    for (const token of placeholders)
      expect(configRefusal({ REG_BASE_IRI: SAMPLE_BASE_IRI, REG_ROOT_TOKEN: token }), token).toMatch(
        /REG_ROOT_TOKEN is a placeholder/,
      );
    // In Compose the token comes from the operator's environment only.
    const compose = yamlFile(path.join(DEPLOY, 'compose.yaml'));
    expect(compose.services.reg.environment.REG_ROOT_TOKEN).toMatch(/^\$\{REG_ROOT_TOKEN(:?-)?\}$/);
  });
});

describe('Compose', () => {
  const schema = JSON.parse(read(COMPOSE_SCHEMA)) as Obj;
  // The schema names draft-07 by an address this validator keys differently; the draft is its default.
  delete schema.$schema;
  const validate = new Ajv({ allErrors: true }).compile(schema);

  it('validates compose.yaml and compose.virtuoso.yaml against the Compose Specification schema', () => {
    for (const file of ['compose.yaml', 'compose.virtuoso.yaml']) {
      const valid = validate(yamlFile(path.join(DEPLOY, file)));
      expect(validate.errors ?? [], file).toEqual([]);
      expect(valid, file).toBe(true);
    }
    // The validator does refuse what the specification does not define.
    const broken = yamlFile(path.join(DEPLOY, 'compose.yaml'));
    broken.services.reg.readonly = true;
    broken.services.reg.healthcheck.start_period = ['5m'];
    expect(validate(broken)).toBe(false);
    expect(validate.errors!.map((error) => error.dataPath)).toEqual(
      expect.arrayContaining([".services['reg']", ".services['reg'].healthcheck.start_period"]),
    );
  });

  it('runs the image read-only as its own user, with a volume for /data, a health check and a graceful stop', () => {
    const reg = composeModel(['compose.yaml'], DOT_ENV).services.reg as Obj;
    expect(reg.image).toBe(IMAGE);
    expect(reg.command).toEqual(['serve']);
    expect(reg.user).toBe(`${IMAGE_UID}:${IMAGE_UID}`);
    expect(reg.read_only).toBe(true);
    expect(reg.cap_drop).toEqual(['ALL']);
    expect(reg.security_opt).toContain('no-new-privileges:true');
    expect(reg.tmpfs).toBeUndefined();
    expect(reg.ports).toEqual([`${IMAGE_PORT}:${IMAGE_PORT}`]);
    expect(reg.profiles).toBeUndefined();
    const model = yamlFile(path.join(DEPLOY, 'compose.yaml'));
    expect(reg.volumes).toEqual([`reg-data:${IMAGE_DATA_DIR}`]);
    expect(Object.keys(model.volumes as Obj)).toContain('reg-data');
    expect(reg.healthcheck.test).toEqual(['CMD', 'node', IMAGE_CLI, 'healthcheck']);
    expect(parseDuration(reg.healthcheck.start_period)).toBeGreaterThanOrEqual(60_000);
    expect(reg.stop_signal).toBe('SIGTERM');
    expect(parseDuration(reg.stop_grace_period)).toBeGreaterThanOrEqual(SERVER_GRACE_MS * 2);
    expect(reg.restart).toBe('unless-stopped');
  });

  it('gives the registry an environment it accepts, listening on the image port, data in /data', () => {
    const reg = composeModel(['compose.yaml'], DOT_ENV).services.reg as Obj;
    const env = stringEnvironment(reg.environment);
    expect(unknownSettings(Object.keys(env))).toEqual([]);
    expect(configRefusal(env)).toBeUndefined();
    const config = readConfig(env, '/');
    expect(config.listen).toEqual({ host: '0.0.0.0', port: IMAGE_PORT });
    expect(config.dataDir).toBe(IMAGE_DATA_DIR);
    expect(config.baseIri).toBe(SAMPLE_BASE_IRI);
    expect(config.secrets.rootToken).toBe(SAMPLE_TOKEN);
    expect(config.graph.kind).toBe('embedded');
    // REG_ROOT_TOKEN may stay unset; REG_BASE_IRI may not, and the image is the operator's to choose.
    const bare = composeModel(['compose.yaml'], { REG_BASE_IRI: SAMPLE_BASE_IRI }).services.reg as Obj;
    expect(configRefusal(stringEnvironment(bare.environment))).toBeUndefined();
    expect(() => composeModel(['compose.yaml'], {})).toThrow(/^REG_BASE_IRI: set REG_BASE_IRI/);
    const pinned = composeModel(['compose.yaml'], {
      ...DOT_ENV,
      REG_IMAGE: 'ghcr.io/reg-registry/reg:0.1.0',
    });
    expect(pinned.services.reg.image).toBe('ghcr.io/reg-registry/reg:0.1.0');
  });

  it('adds Virtuoso only under the virtuoso profile, configured by deploy/virtuoso/virtuoso.ini', () => {
    const virtuoso = composeModel(['compose.yaml'], DOT_ENV).services.virtuoso as Obj;
    expect(virtuoso.profiles).toEqual(['virtuoso']);
    expect(virtuoso.ports).toBeUndefined();
    const [database, ini] = virtuoso.volumes as [string, Obj];
    expect(database).toBe('virtuoso-data:/database');
    expect(ini).toMatchObject({ type: 'bind', read_only: true });
    expect(fs.existsSync(path.resolve(DEPLOY, ini.source as string))).toBe(true);
    expect(path.resolve(DEPLOY, ini.source as string)).toBe(path.join(DEPLOY, 'virtuoso', 'virtuoso.ini'));
    expect(virtuoso.environment.VIRTUOSO_INI_FILE).toBe(ini.target);
    expect(virtuoso.healthcheck.test.join(' ')).toContain('/8890');
  });

  it('points the registry at that Virtuoso with compose.virtuoso.yaml, after it is healthy', () => {
    const model = composeModel(['compose.yaml', 'compose.virtuoso.yaml'], DOT_ENV);
    const reg = model.services.reg as Obj;
    expect(reg.depends_on).toEqual({ virtuoso: { condition: 'service_healthy' } });
    const env = stringEnvironment(reg.environment);
    expect(unknownSettings(Object.keys(env))).toEqual([]);
    expect(configRefusal(env)).toBeUndefined();
    const config = readConfig(env, '/');
    expect(config.graph).toMatchObject({
      kind: 'sparql',
      queryEndpoint: 'http://virtuoso:8890/sparql-auth',
      credential: 'basic',
    });
    expect(config.listen.port).toBe(IMAGE_PORT);
    // The registry signs in with the password Virtuoso's dba account is created with.
    expect(env.REG_SPARQL_USERNAME).toBe('dba');
    expect(env.REG_SPARQL_PASSWORD).toBe(DOT_ENV.VIRTUOSO_DBA_PASSWORD);
    expect(model.services.virtuoso.environment.DBA_PASSWORD).toBe(DOT_ENV.VIRTUOSO_DBA_PASSWORD);
    const { VIRTUOSO_DBA_PASSWORD: _, ...withoutPassword } = DOT_ENV;
    expect(() => composeModel(['compose.yaml', 'compose.virtuoso.yaml'], withoutPassword)).toThrow(
      /^VIRTUOSO_DBA_PASSWORD: /,
    );
    // The port and path the registry uses are those virtuoso.ini opens.
    const ini = parseIni(read(path.join(DEPLOY, 'virtuoso', 'virtuoso.ini')), /^;/);
    expect(new URL(env.REG_SPARQL_ENDPOINT!).port).toBe(iniValue(ini, 'HTTPServer', 'ServerPort'));
  });
});

describe('virtuoso.ini', () => {
  const ini = parseIni(read(path.join(DEPLOY, 'virtuoso', 'virtuoso.ini')), /^;/);
  const maxRows = Number(fallback('REG_SPARQL_MAX_ROWS'));

  it("keeps the database in the image's /database volume", () => {
    for (const [section, key] of [
      ['Database', 'DatabaseFile'],
      ['Database', 'TransactionFile'],
      ['Database', 'LockFile'],
      ['TempDatabase', 'DatabaseFile'],
    ] as const)
      expect(iniValue(ini, section, key), `${section} ${key}`).toMatch(/^\/database\/[\w.-]+$/);
  });

  it("never cuts nor refuses to sort the answer /sparql asks for to tell one over the registry's row limit", () => {
    // /sparql asks for REG_SPARQL_MAX_ROWS + 1 solutions of a SELECT; a CONSTRUCT's triples count too.
    expect(Number(iniValue(ini, 'SPARQL', 'ResultSetMaxRows'))).toBeGreaterThanOrEqual(maxRows + 1);
    expect(Number(iniValue(ini, 'Parameters', 'MaxSortedTopRows'))).toBeGreaterThanOrEqual(maxRows + 1);
    expect(Number(fallback('REG_SPARQL_ANONYMOUS_MAX_ROWS'))).toBeLessThanOrEqual(maxRows);
  });

  it("stops a query a little after the registry's own time limit, not before it", () => {
    const serverLimitMs = Number(iniValue(ini, 'SPARQL', 'MaxQueryExecutionTime')) * 1000;
    const registryLimitMs = parseDuration(fallback('REG_SPARQL_TIMEOUT'));
    expect(serverLimitMs).toBeGreaterThan(registryLimitMs);
    expect(serverLimitMs).toBeLessThanOrEqual(registryLimitMs + 30_000);
    expect(parseDuration(fallback('REG_SPARQL_ANONYMOUS_TIMEOUT'))).toBeLessThanOrEqual(registryLimitMs);
  });

  it('has the threads for the queries the registry sends at once', () => {
    const running = Number(fallback('REG_SPARQL_MAX_RUNNING'));
    expect(Number(iniValue(ini, 'HTTPServer', 'ServerThreads'))).toBeGreaterThan(running * 2);
    expect(Number(iniValue(ini, 'Parameters', 'MaxClientConnections'))).toBeGreaterThanOrEqual(
      Number(iniValue(ini, 'HTTPServer', 'ServerThreads')),
    );
  });

  it.skipIf(!fs.existsSync('/usr/bin/virtuoso-t'))(
    'starts a real Virtuoso that sorts the rows /sparql asks for (skipped without virtuoso-opensource)',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reg-deploy-virtuoso-'));
      const [sqlPort, httpPort] = await freePorts(2);
      const local = read(path.join(DEPLOY, 'virtuoso', 'virtuoso.ini'))
        .replaceAll('/database/', `${dir}/`)
        .replace(/^(ServerPort\s*=\s*)1111$/m, `$1127.0.0.1:${sqlPort}`)
        .replace(/^(ServerPort\s*=\s*)8890$/m, `$1127.0.0.1:${httpPort}`);
      expect(local).toContain(`127.0.0.1:${httpPort}`);
      fs.writeFileSync(path.join(dir, 'virtuoso.ini'), local);
      const server = spawn(
        '/usr/bin/virtuoso-t',
        ['+foreground', '+configfile', path.join(dir, 'virtuoso.ini')],
        {
          cwd: dir,
          stdio: 'ignore',
        },
      );
      const stop = (): void => void server.kill('SIGKILL');
      process.once('exit', stop);
      try {
        const sparql = `http://127.0.0.1:${httpPort}/sparql`;
        const ask = await waitFor(`${sparql}?query=${encodeURIComponent('ASK {}')}`, 50_000);
        expect(
          ask,
          fs.existsSync(path.join(dir, 'virtuoso.log')) ? read(path.join(dir, 'virtuoso.log')) : '',
        ).toBe(200);
        const sorted = `SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT ${maxRows + 1}`;
        const answer = await fetch(`${sparql}?query=${encodeURIComponent(sorted)}`, {
          headers: { accept: 'application/sparql-results+json' },
        });
        expect(answer.status, await answer.clone().text()).toBe(200);
        expect(((await answer.json()) as Obj).results.bindings).toBeInstanceOf(Array);
      } finally {
        stop();
        process.off('exit', stop);
        await new Promise((resolve) => setTimeout(resolve, 200));
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** Polls a URL until it answers (its status), or gives up after `ms` (0). */
async function waitFor(url: string, ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status === 200) return 200;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return 0;
}

describe('Kubernetes (Kustomize base)', () => {
  const kustomization = yamlFile(path.join(KUSTOMIZE_BASE, 'kustomization.yaml'));
  const source = (file: string): Obj => yamlFile(path.join(KUSTOMIZE_BASE, file));

  it('lists every manifest of the base, in the namespace reg, and never the example Secret', () => {
    expect(kustomization.kind).toBe('Kustomization');
    expect(kustomization.namespace).toBe(NAMESPACE);
    const manifests = fs.readdirSync(KUSTOMIZE_BASE).filter((file) => file.endsWith('.yaml'));
    const listed = kustomization.resources as string[];
    expect([...listed].sort()).toEqual(
      manifests.filter((file) => file !== 'kustomization.yaml' && file !== 'secret.example.yaml').sort(),
    );
    expect(listed).not.toContain('secret.example.yaml');
    expect(kustomization.secretGenerator).toBeUndefined();
    for (const file of listed) {
      const namespace = source(file).metadata.namespace as string | undefined;
      expect(namespace === undefined || namespace === NAMESPACE, file).toBe(true);
    }
    expect(source('namespace.yaml')).toMatchObject({ kind: 'Namespace', metadata: { name: NAMESPACE } });
    expect(source('namespace.yaml').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('names the image, at its minor tag, as Compose does', () => {
    const [image] = kustomization.images as Obj[];
    expect(`${image!.name}:${image!.newTag}`).toBe(IMAGE);
    const compose = composeModel(['compose.yaml'], DOT_ENV);
    expect(compose.services.reg.image).toBe(`${image!.name}:${image!.newTag}`);
    expect(source('deployment.yaml').spec.template.spec.containers[0].image).toBe(IMAGE);
  });

  it('runs one replica, recreated, probed on 8080, locked down, with its data on a ReadWriteOnce claim', () => {
    const deployment = source('deployment.yaml');
    checkDeployment(deployment);
    checkClaim(source('pvc.yaml'));
    checkService(source('service.yaml'), deployment.spec.template.metadata.labels);
    checkIngress(source('ingress.yaml'), source('service.yaml'));
  });

  it('reads REG_BASE_IRI from the generated ConfigMap and REG_ROOT_TOKEN from a Secret, both accepted', () => {
    const [generator] = kustomization.configMapGenerator as Obj[];
    expect(generator!.name).toBe('reg-config');
    const data = Object.fromEntries(
      (generator!.literals as string[]).map((literal) => literal.split(/=(.*)/s).slice(0, 2)),
    );
    expect(Object.keys(data)).toContain('REG_BASE_IRI');
    const container = source('deployment.yaml').spec.template.spec.containers[0] as Obj;
    const env = containerEnvironment(container, [{ metadata: { name: 'reg-config' }, data }], {
      'reg-root-token/REG_ROOT_TOKEN': SAMPLE_TOKEN,
    });
    expect(unknownSettings(Object.keys(env))).toEqual([]);
    expect(configRefusal(env)).toBeUndefined();
    expect(readConfig(env, '/')).toMatchObject({
      listen: { host: '0.0.0.0', port: IMAGE_PORT },
      dataDir: IMAGE_DATA_DIR,
      baseIri: data.REG_BASE_IRI,
    });
    // The example Secret has the name and key the Deployment reads.
    const example = source('secret.example.yaml');
    expect(example).toMatchObject({
      kind: 'Secret',
      metadata: { name: 'reg-root-token', namespace: NAMESPACE },
    });
    expect(Object.keys(example.stringData as Obj)).toEqual(['REG_ROOT_TOKEN']);
    // The Ingress host is the host of the base IRI.
    expect(source('ingress.yaml').spec.rules[0].host).toBe(new URL(data.REG_BASE_IRI).host);
  });

  it('offers a ServiceMonitor as an optional component scraping /metrics', () => {
    const component = yamlFile(path.join(COMPONENT, 'kustomization.yaml'));
    expect(component).toMatchObject({ apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component' });
    expect(component.resources).toEqual(['servicemonitor.yaml']);
    const monitor = yamlFile(path.join(COMPONENT, 'servicemonitor.yaml'));
    expect(monitor.metadata.namespace).toBe(NAMESPACE);
    checkServiceMonitor(monitor, source('service.yaml'));
    expect(kustomization.components).toBeUndefined();
  });

  const kubectl = onPath('kubectl');

  it.skipIf(!kubectl)(
    'renders with kubectl kustomize into namespaced objects that agree (skipped without kubectl)',
    () => {
      const rendered = spawnSync('kubectl', ['kustomize', KUSTOMIZE_BASE], { encoding: 'utf8' });
      expect(rendered.stderr).toBe('');
      expect(rendered.status).toBe(0);
      const objects = objectsOf(rendered.stdout);
      expect(objects.map((object) => object.kind).sort()).toEqual(
        ['ConfigMap', 'Deployment', 'Ingress', 'Namespace', 'PersistentVolumeClaim', 'Service'].sort(),
      );
      for (const object of objects) {
        if (object.kind === 'Namespace') expect(object.metadata.name).toBe(NAMESPACE);
        else expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe(NAMESPACE);
      }
      const deployment = only(objects, 'Deployment');
      const service = only(objects, 'Service');
      checkDeployment(deployment);
      checkClaim(only(objects, 'PersistentVolumeClaim'));
      checkService(service, deployment.spec.template.metadata.labels);
      checkIngress(only(objects, 'Ingress'), service);
      const container = deployment.spec.template.spec.containers[0] as Obj;
      expect(container.image).toBe(IMAGE);
      // The generated ConfigMap's name (with its hash) is the one the container reads.
      const configMap = only(objects, 'ConfigMap');
      expect(configMap.metadata.name).toMatch(/^reg-config-[a-z0-9]+$/);
      const env = containerEnvironment(container, [configMap], {
        'reg-root-token/REG_ROOT_TOKEN': SAMPLE_TOKEN,
      });
      expect(configRefusal(env)).toBeUndefined();
      expect(only(objects, 'PersistentVolumeClaim').metadata.name).toBe(
        deployment.spec.template.spec.volumes[0].persistentVolumeClaim.claimName,
      );
    },
  );

  it.skipIf(!kubectl)(
    'renders the ServiceMonitor component in an overlay (skipped without kubectl 1.21+)',
    (context) => {
      const overlay = fs.mkdtempSync(path.join(os.tmpdir(), 'reg-deploy-overlay-'));
      try {
        const base = path.relative(overlay, KUSTOMIZE_BASE);
        fs.writeFileSync(
          path.join(overlay, 'kustomization.yaml'),
          [
            'apiVersion: kustomize.config.k8s.io/v1beta1',
            'kind: Kustomization',
            'resources:',
            `  - ${base}`,
            'components:',
            `  - ${path.join(base, 'components', 'servicemonitor')}`,
            '',
          ].join('\n'),
        );
        const rendered = spawnSync('kubectl', ['kustomize', overlay], { encoding: 'utf8' });
        // kubectl before 1.21 embeds a Kustomize without components.
        if (/unknown field "components"/.test(rendered.stderr)) context.skip();
        expect(rendered.stderr).toBe('');
        expect(rendered.status).toBe(0);
        const objects = objectsOf(rendered.stdout);
        const monitor = only(objects, 'ServiceMonitor');
        expect(monitor.metadata.namespace).toBe(NAMESPACE);
        checkServiceMonitor(monitor, only(objects, 'Service'));
      } finally {
        fs.rmSync(overlay, { recursive: true, force: true });
      }
    },
  );
});

describe('systemd', () => {
  const unitFile = path.join(DEPLOY, 'systemd', 'reg.service');
  const unit = parseIni(read(unitFile), /^[#;]/);
  const service = unit.get('Service')!;
  const values = (key: string): string[] => service.get(key) ?? [];
  const value = (key: string): string | undefined => values(key).at(-1);

  it('runs reg serve as a simple service of a dynamic user, data in the state directory /var/lib/reg', () => {
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    expect(value('Type')).toMatch(/^(simple|exec)$/);
    expect(value('ExecStart')).toMatch(/(^|\/|\s)reg serve$/);
    expect(value('DynamicUser')).toBe('yes');
    expect(value('StateDirectory')).toBe('reg');
    expect(values('Environment')).toContain('REG_DATA_DIR=/var/lib/reg');
    expect(value('EnvironmentFile')).toBe('/etc/reg/reg.env');
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('stops with SIGTERM in time for the graceful stop, and restarts on failure but not on a refused setting', () => {
    expect(value('KillSignal')).toBe('SIGTERM');
    expect(parseDuration(value('TimeoutStopSec')!)).toBeGreaterThanOrEqual(SERVER_GRACE_MS + 5_000);
    expect(value('Restart')).toBe('on-failure');
    const prevented = value('RestartPreventExitStatus')!.split(/\s+/).map(Number);
    expect(prevented).toEqual(expect.arrayContaining([EXIT.usage, EXIT.config]));
    // A data directory still in use and an unreachable graph store may pass: those are retried.
    for (const code of [EXIT.failure, EXIT.locked, EXIT.unhealthy]) expect(prevented).not.toContain(code);
  });

  it('is sandboxed, and leaves memory that is written and executed to Node’s JIT compiler', () => {
    const expected: Record<string, string> = {
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      ProtectKernelTunables: 'yes',
      ProtectKernelModules: 'yes',
      ProtectKernelLogs: 'yes',
      ProtectControlGroups: 'yes',
      RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
      RestrictNamespaces: 'yes',
      RestrictSUIDSGID: 'yes',
      LockPersonality: 'yes',
      SystemCallFilter: '@system-service',
      CapabilityBoundingSet: '',
      UMask: '0077',
    };
    for (const [key, setting] of Object.entries(expected)) expect(value(key), key).toBe(setting);
    for (const section of unit.values()) expect(section.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it('gets settings the registry accepts from reg.env.example once its placeholder is replaced', () => {
    const example = read(path.join(DEPLOY, 'systemd', 'reg.env.example'));
    const env: Record<string, string> = {};
    for (const line of example.split('\n')) {
      const entry = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
      if (entry !== null) env[entry[1]!] = entry[2]!;
      else expect(line === '' || line.startsWith('#'), line).toBe(true);
    }
    for (const setting of values('Environment')) {
      const [name, ...rest] = setting.split('=');
      env[name!] = rest.join('=');
    }
    const commented = [...example.matchAll(/^#(REG_[A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    expect(unknownSettings([...Object.keys(env), ...commented])).toEqual([]);
    expect(configRefusal(env)).toMatch(/REG_ROOT_TOKEN is a placeholder/);
    const config = readConfig({ ...env, REG_ROOT_TOKEN: SAMPLE_TOKEN }, '/');
    expect(config.dataDir).toBe('/var/lib/reg');
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 8080 });
  });

  it.skipIf(!onPath('systemd-analyze'))('passes systemd-analyze verify (skipped without systemd)', () => {
    const verified = spawnSync('systemd-analyze', ['verify', '--man=no', unitFile], { encoding: 'utf8' });
    // Warnings about the unit (an unknown key, a bad value) go to stderr with its name, and still exit 0.
    const aboutUnit = verified.stderr.split('\n').filter((line) => line.includes('reg.service'));
    expect(aboutUnit).toEqual([]);
    expect(verified.status).toBe(0);
  });
});
