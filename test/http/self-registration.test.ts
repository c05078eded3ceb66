import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principal, ROOT_PRINCIPAL, type Principal } from '../../src/core/access/principal.js';
import type { Core } from '../../src/core/core.js';
import { GRAPHS } from '../../src/core/ns.js';
import { createSoftware } from '../../src/core/catalogue/software.js';
import { getInstance, updateInstance, withdrawInstance } from '../../src/core/catalogue/instances.js';
import { announceInstance } from '../../src/core/catalogue/self-registration.js';
import { listAudit } from '../../src/core/store/audit.js';
import { openTestCore } from '../helpers.js';
import { actOf } from '../../src/core/stored/write-path.js';

const PRIMARY = 'https://login.example.org/realms/reg';
const OTHER = 'https://other-idp.example.org';
let core: Core;
let software: string;
let listed: string;

const softwareToken = (bound: string, scopes = ['register:instance', 'advertise:produce']): Principal =>
  principal({
    credential: 'local-token',
    actorKind: 'instance-token',
    subject: 'urn:reg:token:t1',
    software: bound,
    scopes,
    tokenId: 't1',
  });
const workload = (clientId: string, issuer = PRIMARY): Principal =>
  principal({
    credential: 'oidc-workload',
    actorKind: 'oidc-workload',
    subject: `${issuer}|${clientId}`,
    clientId,
    issuer,
    scopes: [],
  });
const curator = principal({
  credential: 'oidc-human',
  actorKind: 'oidc-human',
  subject: `${PRIMARY}|alice`,
  roles: ['curator'],
});

beforeAll(async () => {
  core = await openTestCore({ REG_OIDC_ISSUER: PRIMARY, REG_WORKLOAD_ISSUERS: OTHER }, true);
  software = (await createSoftware(core, actOf(ROOT_PRINCIPAL), { name: 'announced' })).iri as string;
  listed = (
    await createSoftware(core, actOf(ROOT_PRINCIPAL), { name: 'listed', registration_clients: ['ci-runner'] })
  ).iri as string;
});
afterAll(async () => core.close());

describe('PUT /api/v1/instances/self', () => {
  it('creates on the first call and updates the same record on later calls with the same key', async () => {
    const token = softwareToken(software);
    const first = await announceInstance(core, actOf(token), {
      instance_key: 'node-a',
      endpoint_url: 'https://a.example.org',
    });
    expect(first.created).toBe(true);
    expect(first.record).toMatchObject({
      software,
      label: 'node-a',
      instance_key: 'node-a',
      self_registered_by: 'urn:reg:token:t1',
      endpoint_url: 'https://a.example.org',
    });
    expect(first.record.last_seen_at).toBeTypeOf('string');
    const again = await announceInstance(core, actOf(token), { instance_key: 'node-a', label: 'Node A' });
    expect(again.created).toBe(false);
    expect(again.record).toMatchObject({
      iri: first.record.iri,
      label: 'Node A',
      endpoint_url: 'https://a.example.org',
    });
    const other = await announceInstance(core, actOf(token), { instance_key: 'node-b' });
    expect(other.created).toBe(true);
    expect(other.record.iri).not.toBe(first.record.iri);
    const actions = listAudit(core.db, { limit: 10 }).map((entry) => entry.action);
    expect(actions.slice(0, 3)).toEqual([
      'instance.self-register',
      'instance.announce',
      'instance.self-register',
    ]);
  });

  it('takes the software from the credential: another software in the body is 403, a missing scope is 403', async () => {
    await expect(
      announceInstance(core, actOf(softwareToken(software)), { software: listed }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      announceInstance(core, actOf(softwareToken(software, ['advertise:produce'])), {}),
    ).rejects.toMatchObject({
      status: 403,
      detail: expect.stringContaining('register:instance'),
    });
  });

  it('lets a workload listed in registration_clients register itself, without writing its client id', async () => {
    const result = await announceInstance(core, actOf(workload('ci-runner')), { instance_key: 'runner-1' });
    expect(result.created).toBe(true);
    expect(result.record).toMatchObject({
      software: listed,
      self_registered_by: `${PRIMARY}|ci-runner`,
      self_registered_issuer: PRIMARY,
    });
    expect(result.record.oidc_client_id).toBeUndefined();
  });

  it('refuses a same-named client at another issuer, naming the three remedies', async () => {
    const refusal = announceInstance(core, actOf(workload('ci-runner', OTHER)), {});
    await expect(refusal).rejects.toMatchObject({ status: 403 });
    const detail = ((await refusal.catch((error: unknown) => error)) as { detail: string }).detail;
    expect(detail).toContain('oidc_client_id');
    expect(detail).toContain('software token');
    expect(detail).toContain('registration_clients');
    expect(detail).toContain('REG_OIDC_AUTO_REGISTER_INSTANCES');
  });

  it('refuses people and the root token', async () => {
    await expect(announceInstance(core, actOf(ROOT_PRINCIPAL), {})).rejects.toMatchObject({ status: 403 });
    await expect(announceInstance(core, actOf(curator), {})).rejects.toMatchObject({ status: 403 });
  });

  it('with REG_OIDC_AUTO_REGISTER_INSTANCES any accepted workload may name its own software', async () => {
    const auto = await openTestCore(
      { REG_OIDC_ISSUER: PRIMARY, REG_OIDC_AUTO_REGISTER_INSTANCES: 'true' },
      true,
    );
    try {
      const own = (await createSoftware(auto, actOf(ROOT_PRINCIPAL), { name: 'own' })).iri as string;
      const result = await announceInstance(auto, actOf(workload('stranger')), { software: own });
      expect(result.record.software).toBe(own);
      await expect(
        announceInstance(auto, actOf(workload('stranger2')), {
          software: 'https://nowhere.example.org/software/x',
        }),
      ).rejects.toMatchObject({ status: 422 });
    } finally {
      await auto.close();
    }
  });

  it('keeps a self-registered record for the deployment: a curator cannot edit it but can withdraw it', async () => {
    const result = await announceInstance(core, actOf(softwareToken(software)), { instance_key: 'locked' });
    const iri = result.record.iri as string;
    await expect(updateInstance(core, actOf(curator), iri, { label: 'renamed' })).rejects.toMatchObject({
      status: 403,
      detail: expect.stringContaining('PUT /api/v1/instances/self'),
    });
    const itself = principal({
      credential: 'local-token',
      actorKind: 'instance-token',
      subject: iri,
      instance: iri,
      software,
      scopes: ['advertise:produce'],
    });
    expect((await updateInstance(core, actOf(itself), iri, { label: 'renamed by itself' })).label).toBe(
      'renamed by itself',
    );
    await expect(
      updateInstance(core, actOf(itself), iri, { allowed_scopes: ['admin:*'] }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await withdrawInstance(core, actOf(curator), iri);
    expect((await getInstance(core, iri)).tombstoned).toBe(true);
    expect(await core.graph.readRecord(GRAPHS.local, iri)).toContain('tombstoned');
  });
});
