/**
 * The edit of one stored record, made atomic: edits of a record run one at a time (a per-record lock), each
 * starts from the record as stored now, checks the request's `If-Match` against it, and commits only if no
 * other writer (a forge sync, a health probe) changed the record between that read and the commit. An edit
 * without `If-Match` that loses such a race is rebuilt on the newer record; one with `If-Match` is refused (412).
 */
import { ConflictError, NotFoundError } from '../errors.js';
import { GRAPHS } from '../ns.js';
import { recordVersion } from '../store/health.js';
import type { Core } from '../core.js';
import {
  checkCondition,
  conditionOn,
  noteWritten,
  PreconditionFailedError,
  versionOf,
} from './record-version.js';
import type { StoredRecord } from './records.js';
import { checkRecord, commitRecords, refuseViolations, type RecordWriteRequest } from './write-path.js';

/** Rebuilds of an edit that keeps losing races with other writers, before it gives up with a 409. */
const ATTEMPTS = 3;

/** Another writer changed the record between the edit's read and its commit. */
class ChangedMeanwhile extends Error {}

/**
 * Edits the stored record `iri`: `read` reads it as stored now, `build` turns it into the write (or undefined
 * when there is nothing to write, as for a withdrawal of a withdrawn record). 404 when there is no such record.
 */
export async function editStored(
  core: Core,
  iri: string,
  read: () => Promise<StoredRecord | undefined>,
  build: (current: StoredRecord) => RecordWriteRequest | undefined,
  inCommit?: () => void,
): Promise<void> {
  await core.locks.run(`record\n${iri}`, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        await editOnce(core, iri, read, build, inCommit);
        return;
      } catch (error) {
        if (!(error instanceof ChangedMeanwhile)) throw error;
        if (conditionOn(iri)?.expected !== undefined)
          throw new PreconditionFailedError(
            `${iri} was changed by another writer while this edit was made; it is not at the version If-Match names`,
          );
        if (attempt >= ATTEMPTS)
          throw new ConflictError(`${iri} kept changing while this edit was made; send it again`);
      }
    }
  });
}

async function editOnce(
  core: Core,
  iri: string,
  read: () => Promise<StoredRecord | undefined>,
  build: (current: StoredRecord) => RecordWriteRequest | undefined,
  inCommit: (() => void) | undefined,
): Promise<void> {
  // The embedded store numbers each record's writes; read together with the record (the read of an embedded
  // record happens as `read` is called, before anything else can commit), it tells a later commit whether the
  // record moved meanwhile. An external store keeps no such number: there the lock alone keeps edits apart.
  const before = recordVersion(core.db, GRAPHS.local, iri);
  const current = await read();
  checkCondition(iri, current?.version);
  if (current === undefined) throw new NotFoundError(`no record ${iri}`);
  const request = build(current);
  if (request === undefined) {
    noteWritten(iri, current.version);
    return;
  }
  const { quads, results } = await checkRecord(core, request);
  refuseViolations(results);
  await commitRecords(core, [{ request, quads }], () => {
    if (before !== undefined) {
      const now = recordVersion(core.db, GRAPHS.local, iri);
      // One more than before is this edit itself; the same number is an edit that changed nothing.
      if (now !== before && now !== before + 1) throw new ChangedMeanwhile();
    }
    inCommit?.();
  });
  const written = await core.graph.readRecord(GRAPHS.local, iri);
  noteWritten(iri, written === undefined ? undefined : versionOf(written));
}
