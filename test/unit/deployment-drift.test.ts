import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../src/core/deployment/deployments-view.js';

/* How "behind the latest release" compares versions: dotted numbers as numbers, anything else not at all. */
describe('version comparison for drift', () => {
  it('compares dotted numbers part by part as numbers, with a leading v and missing parts as zero', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBe(1);
    expect(compareVersions('v2.0', '2.0.0')).toBe(0);
    expect(compareVersions('1.2', '1.2.1')).toBe(-1);
    expect(compareVersions('10', '9.99')).toBe(1);
  });

  it('does not compare versions that are not dotted numbers', () => {
    expect(compareVersions('1.2.0-rc.1', '1.2.0')).toBeUndefined();
    expect(compareVersions('main', '1.0')).toBeUndefined();
    expect(compareVersions('2024-01-02', '2024-01-03')).toBeUndefined();
  });
});
