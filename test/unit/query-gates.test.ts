import { describe, expect, it } from 'vitest';
import { TooManyQueriesError, UnavailableError } from '../../src/core/errors.js';
import { CallerGate } from '../../src/core/discovery/sparql-callers.js';
import { QueryGate } from '../../src/core/store/graph/query-gate.js';

describe('QueryGate', () => {
  it('admits up to its slots, hands a freed slot to the longest waiter, and refuses one that waited too long', async () => {
    const gate = new QueryGate(2);
    const first = await gate.enter(1000);
    const second = await gate.enter(1000);
    const order: string[] = [];
    const third = gate.enter(5000).then((leave) => {
      order.push('third');
      return leave;
    });
    const fourth = gate.enter(5000).then((leave) => {
      order.push('fourth');
      return leave;
    });
    const late = gate.enter(50);
    await expect(late).rejects.toBeInstanceOf(UnavailableError);
    first();
    first(); // a second call gives nothing back twice
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
    // Every slot is free again.
    const again = await Promise.all([gate.enter(10), gate.enter(10)]);
    for (const leave of again) leave();
  });
});

describe('CallerGate', () => {
  it('refuses a caller one query more than the limit, and counts callers apart', () => {
    const gate = new CallerGate();
    const one = gate.enter('network 192.0.2.1', 2, 1);
    const two = gate.enter('network 192.0.2.1', 2, 1);
    expect(() => gate.enter('network 192.0.2.1', 2, 1)).toThrow(TooManyQueriesError);
    const other = gate.enter('network 192.0.2.2', 2, 1);
    one();
    one();
    const three = gate.enter('network 192.0.2.1', 2, 1);
    expect(() => gate.enter('network 192.0.2.1', 2, 1)).toThrow(TooManyQueriesError);
    for (const leave of [two, three, other]) leave();
  });
});
