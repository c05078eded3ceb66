import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT } from '../helpers.js';

const PROMTOOL = '/usr/bin/promtool';
const MONITORING = path.join(ROOT, 'deploy', 'monitoring');

/** Names of the registry's and the runtime's metrics a text uses, with histogram suffixes taken off. */
function metricNames(text: string): Set<string> {
  const names = text.match(/\b(?:reg|nodejs|process)_[a-z0-9_]+/g) ?? [];
  return new Set(names.map((name) => name.replace(/_(bucket|sum|count)$/, '')));
}

describe('deploy/monitoring', () => {
  let core: Core;
  let exposed: string;

  beforeAll(async () => {
    core = await openTestCore({}, true);
    const app = createApp(core);
    await app.request('/api/v1/software');
    exposed = await (await app.request('/metrics')).text();
  });
  afterAll(() => core.close());

  const families = (): Set<string> =>
    new Set([...exposed.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] ?? ''));

  it('the dashboard queries only metrics the registry exposes', () => {
    const dashboard = fs.readFileSync(path.join(MONITORING, 'reg-dashboard.json'), 'utf8');
    const parsed = JSON.parse(dashboard) as { panels: { targets?: { expr: string }[] }[] };
    const exprs = parsed.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    expect(exprs.length).toBeGreaterThan(10);
    const used = metricNames(exprs.join('\n'));
    expect([...used].filter((name) => !families().has(name))).toEqual([]);
  });

  it('the alert rules pass promtool and use only metrics the registry exposes', () => {
    const rules = fs.readFileSync(path.join(MONITORING, 'alerts.yaml'), 'utf8');
    expect([...metricNames(rules)].filter((name) => !families().has(name))).toEqual([]);
    if (!fs.existsSync(PROMTOOL)) {
      expect(process.env.CI, 'promtool is missing in CI').toBeUndefined();
      console.warn(`skipped promtool check rules: ${PROMTOOL} is not installed`);
      return;
    }
    const out = execFileSync(PROMTOOL, ['check', 'rules', path.join(MONITORING, 'alerts.yaml')], {
      encoding: 'utf8',
    });
    expect(out).toContain('SUCCESS');
  });
});
