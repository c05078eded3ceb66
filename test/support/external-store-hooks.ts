/**
 * Setup file of the `sparql` vitest project: stops the Virtuoso servers a test started once it ended (after the
 * test's own hooks, which run first), and those of a file once the file ended.
 */
import { afterAll, afterEach, beforeEach } from 'vitest';
import { enterTest, leaveFile, leaveTest } from './external-store.js';

beforeEach(() => enterTest());
afterEach(() => leaveTest());
afterAll(() => leaveFile());
