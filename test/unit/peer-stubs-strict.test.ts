import { describe, expect, it } from 'vitest';
import { parseRecordDocument, stubOf } from '../../src/core/federation/peer-stubs.js';

describe('the stub of a record a peer answered', () => {
  it('keeps what the query index can hold and drops statements whose IRIs are not IRIs', () => {
    const record = 'https://peer.test/software/1';
    const document = [
      `<${record}> <http://purl.org/dc/terms/title> "kept" .`,
      `<${record}> <https://schema.org/url> <https://peer.test/ok> .`,
      `<${record}> <https://schema.org/url> <https://peer.test/%zz> .`,
      `<${record}> <https://schema.org/image> <https://peer.test/\u007f> .`,
      `<${record}> <https://schema.org/name> "v"^^<https://peer.test/\ufffd> .`,
      `<${record}#part> <http://purl.org/dc/terms/title> "kept too" .`,
    ].join('\n');
    const quads = parseRecordDocument(document, 'application/n-triples', record);
    expect(quads).toHaveLength(6);
    const stub = stubOf(record, quads, 'urn:reg:peer:peer.test');
    expect(stub.quads.map((quad) => quad.object.value).sort()).toEqual([
      'https://peer.test/ok',
      'kept',
      'kept too',
    ]);
  });
});
