import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { openCore } from '../../src/core/core.js';
import { createLogger, silentLogger } from '../../src/core/log.js';
import { reportForeignBase, reportRetiredCitations } from '../../src/core/discovery/reference-data.js';
import { GRAPHS } from '../../src/core/ns.js';
import { appendAudit, listAudit } from '../../src/core/store/audit.js';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import { SOFTWARE } from '../../src/core/records/specs.js';
import { actOf, checkRecord, commitRecords } from '../../src/core/stored/write-path.js';
import {
  canonicalText,
  canonicalTextOf,
  factory,
  quadToLine,
  type Quad,
} from '../../src/core/store/nquads.js';
import { openTestCore, testConfig } from '../helpers.js';

const { namedNode, literal, quad } = factory;
const local = namedNode(GRAPHS.local);
const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function fresh(indexed = false): Promise<Core> {
  const core = await openTestCore({}, indexed);
  cores.push(core);
  return core;
}

const record = (core: Core, id: string, title: string) => {
  const subject = `${core.config.baseIri}/thing/${id}`;
  return {
    graph: GRAPHS.local,
    subject,
    kind: 'software',
    quads: [
      quad(namedNode(subject), namedNode('http://purl.org/dc/terms/title'), literal(title), local),
      quad(
        namedNode(`${subject}#part`),
        namedNode('http://purl.org/dc/terms/title'),
        literal(`${title} part`),
        local,
      ),
    ],
  };
};

describe('embedded graph store', () => {
  it('commits a record and its audit entry together, and reads the record back canonically', async () => {
    const core = await fresh();
    const write = record(core, 'a', 'Alpha');
    await core.graph.commit([write], () =>
      appendAudit(core.db, {
        actor: 'me',
        actorKind: 'root-token',
        action: 'test.write',
        target: write.subject,
      }),
    );
    const text = await core.graph.readRecord(GRAPHS.local, write.subject);
    expect(text?.split('\n').filter(Boolean)).toHaveLength(2);
    expect(text).toContain('"Alpha part"');
    expect(listAudit(core.db, { limit: 10 }).map((e) => e.action)).toContain('test.write');
  });

  it('writes nothing when the operational part of the act fails', async () => {
    const core = await fresh();
    const write = record(core, 'b', 'Beta');
    await expect(
      core.graph.commit([write], () => {
        appendAudit(core.db, { actor: null, actorKind: 'system', action: 'doomed', target: null });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await core.graph.readRecord(GRAPHS.local, write.subject)).toBeUndefined();
    expect(listAudit(core.db, { limit: 10, action: 'doomed' })).toHaveLength(0);
  });

  it('keeps the query index in step with commits, replacements and deletions', async () => {
    const core = await fresh(true);
    const write = record(core, 'c', 'Gamma');
    await core.graph.commit([write], () => undefined);
    const titles = async () =>
      (
        await core.graph.select(
          `SELECT ?t WHERE { GRAPH <${GRAPHS.local}> { <${write.subject}> <http://purl.org/dc/terms/title> ?t } }`,
        )
      ).map((b) => b.t?.value);
    expect(await titles()).toEqual(['Gamma']);
    await core.graph.commit([record(core, 'c', 'Delta')], () => undefined);
    expect(await titles()).toEqual(['Delta']);
    await core.graph.commit([{ graph: GRAPHS.local, subject: write.subject, quads: null }], () => undefined);
    expect(await titles()).toEqual([]);
    expect(await core.graph.readRecord(GRAPHS.local, write.subject)).toBeUndefined();
  });

  it('loads the reference bundles into the index and counts records by kind', async () => {
    const core = await fresh(true);
    expect(await core.graph.ask(`ASK { GRAPH <${GRAPHS.shapes}> { ?s ?p ?o } }`)).toBe(true);
    expect(await core.graph.ask(`ASK { GRAPH <${GRAPHS.edam}> { ?s ?p ?o } }`)).toBe(true);
    await core.graph.commit([record(core, 'd', 'One'), record(core, 'e', 'Two')], () => undefined);
    expect((await core.graph.countByKind(GRAPHS.local)).get('software')).toBe(2);
    const total = await core.graph.countQuads();
    expect(total).toBeGreaterThan(10_000);
  });

  it('refuses a second opening of the same data directory while the first holds it', async () => {
    const core = await fresh();
    const config = testConfig({ REG_DATA_DIR: core.config.dataDir });
    await expect(openCore(config, silentLogger)).rejects.toThrow(
      `data directory ${core.config.dataDir} is in use by process ${process.pid}`,
    );
  });

  it('writes the bundle catalogue once and nothing on a start with unchanged bundles', async () => {
    const core = await fresh();
    const dir = core.config.dataDir;
    const loads = listAudit(core.db, { limit: 100, action: 'bundle.load' }).length;
    expect(loads).toBe(core.reference.bundles.length);
    const catalogue = await core.graph.readRecord(GRAPHS.catalogue, GRAPHS.edam);
    await core.close();
    cores.splice(0);
    const again = await openCore(testConfig({ REG_DATA_DIR: dir }), silentLogger);
    cores.push(again);
    expect(listAudit(again.db, { limit: 100, action: 'bundle.load' })).toHaveLength(loads);
    expect(await again.graph.readRecord(GRAPHS.catalogue, GRAPHS.edam)).toBe(catalogue);
    await again.close();
    cores.splice(0);
    const rebased = await openCore(
      testConfig({ REG_DATA_DIR: dir, REG_BASE_IRI: 'http://elsewhere.test' }),
      silentLogger,
    );
    cores.push(rebased);
    expect(listAudit(rebased.db, { limit: 100, action: 'bundle.load' })).toHaveLength(loads * 2);
  });
});

describe('retired vocabulary terms', () => {
  it('names each local record that cites a retired term once, with the replacement', async () => {
    const lines: string[] = [];
    const core = await openCore(
      testConfig(),
      createLogger('warn', (line) => lines.push(line)),
    );
    cores.push(core);
    await core.graph.open();
    const subject = `${core.config.baseIri}/artifact/old`;
    const retired = core.reference.index
      .retiredTerms()
      .find((term) => term.replacedBy.length > 0 && term.graph === GRAPHS.edam);
    expect(retired).toBeDefined();
    const cites = (s: string) =>
      quad(namedNode(s), namedNode('http://purl.org/dc/terms/conformsTo'), namedNode(retired!.iri), local);
    const dataset = quad(
      namedNode(subject),
      namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
      namedNode('http://www.w3.org/ns/dcat#Dataset'),
      local,
    );
    await core.graph.commit(
      [
        { graph: GRAPHS.local, subject, quads: [dataset, cites(subject), cites(`${subject}#dist-1`)] },
        {
          graph: GRAPHS.local,
          subject: `${core.config.baseIri}/artifact/fine`,
          quads: [
            quad(
              namedNode(`${core.config.baseIri}/artifact/fine`),
              namedNode('http://purl.org/dc/terms/conformsTo'),
              namedNode('http://edamontology.org/data_0006'),
              local,
            ),
          ],
        },
      ],
      () => undefined,
    );
    const found = await reportRetiredCitations(core);
    expect([...found.keys()]).toEqual([subject]);
    expect(found.get(subject)).toEqual([retired!.iri]);
    const logged = lines
      .map(
        (line) =>
          JSON.parse(line) as { msg: string; record?: string; field?: string; replaced_by?: string[] },
      )
      .filter((entry) => entry.record !== undefined);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ field: 'conforms_to', replaced_by: retired!.replacedBy });
  });
});

describe('records under another base IRI', () => {
  it('are counted and named in a warning', async () => {
    const lines: string[] = [];
    const core = await openCore(
      testConfig(),
      createLogger('warn', (line) => lines.push(line)),
    );
    cores.push(core);
    expect(reportForeignBase(core)).toBe(0);
    await core.graph.commit(
      [record(core, 'mine', 'Mine'), { ...record(core, 'x', 'Theirs'), subject: 'http://old.test/thing/x' }],
      () => undefined,
    );
    expect(reportForeignBase(core)).toBe(1);
    expect(lines.join('')).toContain('"example":"http://old.test/thing/x"');
  });
});

describe('record counts', () => {
  it('stay equal to a full count through inserts, replacements, kind changes and deletions', async () => {
    const core = await fresh();
    const bundleQuads = core.reference.bundles.reduce((sum, bundle) => sum + bundle.tripleCount, 0);
    const truth = () =>
      core.db
        .prepare(
          "SELECT count(*) AS records, coalesce(sum(quad_count), 0) AS quads FROM record WHERE kind = 'software'",
        )
        .get() as {
        records: number;
        quads: number;
      };
    const all = () =>
      (core.db.prepare('SELECT coalesce(sum(quad_count), 0) AS n FROM record').get() as { n: number }).n;
    await core.graph.commit(
      [record(core, 'a', 'A'), record(core, 'b', 'B'), record(core, 'c', 'C')],
      () => undefined,
    );
    await core.graph.commit(
      [{ ...record(core, 'a', 'A2'), quads: record(core, 'a', 'A2').quads.slice(0, 1) }],
      () => undefined,
    );
    await core.graph.commit([{ ...record(core, 'b', 'B'), kind: 'release' }], () => undefined);
    await core.graph.commit(
      [{ graph: GRAPHS.local, subject: record(core, 'c', 'C').subject, quads: null }],
      () => undefined,
    );
    expect((await core.graph.countByKind(GRAPHS.local)).get('software')).toBe(truth().records);
    expect(truth()).toEqual({ records: 1, quads: 1 });
    expect((await core.graph.countByKind(GRAPHS.local)).get('release')).toBe(1);
    expect(await core.graph.countQuads()).toBe(bundleQuads + all());
  });
});

describe('closing', () => {
  it('ends a query index load in progress instead of leaving it pending', async () => {
    const core = await openCore(testConfig(), silentLogger, { index: true });
    const loading = expect(core.graph.open()).rejects.toThrow(/closed/);
    await core.close();
    await loading;
    expect(core.graph.ready).toBe(false);
  });
});

describe('group commit', () => {
  it('commits concurrent writes together, rolling back only the one that fails', async () => {
    const core = await fresh(true);
    const results = await Promise.allSettled([
      core.graph.commit([record(core, 'g1', 'One')], () =>
        appendAudit(core.db, { actor: null, actorKind: 'system', action: 'g.ok', target: 'g1' }),
      ),
      core.graph.commit([record(core, 'g2', 'Two')], () => {
        appendAudit(core.db, { actor: null, actorKind: 'system', action: 'g.bad', target: 'g2' });
        throw new Error('refused');
      }),
      core.graph.commit([record(core, 'g3', 'Three')], () =>
        appendAudit(core.db, { actor: null, actorKind: 'system', action: 'g.ok', target: 'g3' }),
      ),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await core.graph.readRecord(GRAPHS.local, record(core, 'g2', 'x').subject)).toBeUndefined();
    expect(await core.graph.readRecord(GRAPHS.local, record(core, 'g1', 'x').subject)).toContain('"One"');
    expect(await core.graph.readRecord(GRAPHS.local, record(core, 'g3', 'x').subject)).toContain('"Three"');
    expect(listAudit(core.db, { limit: 10, action: 'g.bad' })).toHaveLength(0);
    expect(listAudit(core.db, { limit: 10, action: 'g.ok' })).toHaveLength(2);
    expect(await core.graph.ask(`ASK { GRAPH ?g { <${record(core, 'g3', 'x').subject}> ?p "Three" } }`)).toBe(
      true,
    );
    // The search rows are written after the acts: the refused act leaves none, and the full-text tables hold
    // exactly the rows kept.
    const searched = core.db.prepare('SELECT iri FROM search_entry ORDER BY iri').all() as { iri: string }[];
    expect(searched.map((row) => row.iri)).toEqual(['g1', 'g3'].map((id) => record(core, id, 'x').subject));
    core.db.prepare(`INSERT INTO search_text (search_text, rank) VALUES ('integrity-check', 1)`).run();
    core.db.prepare(`INSERT INTO search_word (search_word, rank) VALUES ('integrity-check', 1)`).run();
  });
});

describe('flushing the log to disk', () => {
  it('acknowledges a commit only after an fdatasync that began after it was written, sharing flushes', async () => {
    const core = await fresh(true);
    const events: string[] = [];
    const real = fs.fdatasync;
    const spy = vi.spyOn(fs, 'fdatasync').mockImplementation((fd, callback) => {
      events.push('flush-start');
      real(fd, (error) => {
        events.push('flush-end');
        callback(error);
      });
    });
    try {
      const commits = Array.from({ length: 12 }, (_, n) =>
        core.graph
          .commit([record(core, `f${n}`, `Flush ${n}`)], () => events.push(`written ${n}`))
          .then(() => events.push(`acknowledged ${n}`)),
      );
      await Promise.all(commits);
      for (let n = 0; n < 12; n++) {
        const written = events.indexOf(`written ${n}`);
        const acknowledged = events.indexOf(`acknowledged ${n}`);
        const flushStart = events.indexOf('flush-start', written);
        expect(flushStart, `commit ${n}`).toBeGreaterThan(written);
        expect(events.indexOf('flush-end', flushStart)).toBeLessThan(acknowledged);
      }
      // Concurrent commits share the transaction and its flush: far fewer flushes than commits.
      expect(spy.mock.calls.length).toBeLessThan(12);
      expect(await core.graph.readRecord(GRAPHS.local, record(core, 'f11', 'x').subject)).toContain(
        '"Flush 11"',
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses the commits of a batch whose flush fails', async () => {
    const core = await fresh(true);
    const spy = vi.spyOn(fs, 'fdatasync').mockImplementation((_fd, callback) => {
      callback(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    });
    try {
      await expect(core.graph.commit([record(core, 'eio', 'Lost')], () => undefined)).rejects.toThrow(
        /flush/,
      );
    } finally {
      spy.mockRestore();
    }
  });
});

describe('canonical text of checked records', () => {
  it('is made once for frozen quads and anew for quads that may still change', () => {
    const subject = 'http://registry.test/thing/a';
    const title = (text: string) =>
      quad(namedNode(subject), namedNode('http://purl.org/dc/terms/title'), literal(text), local);
    const open = [title('B'), title('A'), title('A')];
    const before = canonicalTextOf(open);
    expect(before).toBe(canonicalText(open.map(quadToLine)));
    expect(before.split('\n').filter(Boolean)).toHaveLength(2);
    open.push(title('C'));
    expect(canonicalTextOf(open)).toContain('"C"');
    const frozen = Object.freeze([title('B'), title('A')]);
    const text = canonicalTextOf(frozen);
    expect(canonicalTextOf(frozen)).toBe(text);
    expect(text.indexOf('"A"')).toBeLessThan(text.indexOf('"B"'));
  });

  it('stores exactly the text of the quads the write path checked, which no one can change after', async () => {
    const core = await fresh(true);
    const iri = `${core.config.baseIri}/software/0190f5d3-0000-7000-8000-0000000000aa`;
    const request = {
      spec: SOFTWARE,
      iri,
      candidate: { name: 'Checked once' },
      action: 'software.create',
      act: actOf(ROOT_PRINCIPAL),
    };
    const { quads, results } = await checkRecord(core, request);
    expect(results.filter((result) => result.severity === 'violation')).toEqual([]);
    expect(Object.isFrozen(quads)).toBe(true);
    expect(() => (quads as Quad[]).push(quads[0] as Quad)).toThrow(TypeError);
    await commitRecords(core, [{ request, quads }], () => undefined);
    expect(await core.graph.readRecord(GRAPHS.local, iri)).toBe(canonicalText(quads.map(quadToLine)));
  });
});
