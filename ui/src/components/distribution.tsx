/**
 * One distribution of an artifact: how to get the bytes (or that they cannot be got), how big they are, their
 * checksum and the content identifier that finds other artifacts with the same bytes.
 */
import { withQuery, type DistributionJson } from '../api';
import { Availability } from './badges';
import { ExternalLink, Fields, formatBytes, Term } from './record-bits';

export function DistributionView({ distribution, n }: { distribution: DistributionJson; n: number }) {
  const { checksum, content_identifier: content } = distribution;
  const obtainable = distribution.availability !== 'metadata-only' && distribution.download_url !== undefined;
  return (
    <section class="card" aria-labelledby={`distribution-${n}`}>
      <h3 id={`distribution-${n}`}>
        Distribution {n}
        {distribution.title !== undefined && `: ${distribution.title}`}
      </h3>
      <Fields
        rows={[
          ['Availability', <Availability value={distribution.availability ?? 'public'} />],
          [
            'Download',
            obtainable ? (
              <ExternalLink href={distribution.download_url}>
                Download {distribution.media_type ?? 'file'}
              </ExternalLink>
            ) : (
              'no download address'
            ),
          ],
          ['Access', distribution.access_url && <ExternalLink href={distribution.access_url} />],
          [
            'Request access',
            distribution.access_request_url && <ExternalLink href={distribution.access_request_url} />,
          ],
          ['Access protocol', distribution.access_protocol],
          ['Authentication', distribution.auth_method],
          [
            'Access service',
            distribution.access_service && <ExternalLink href={distribution.access_service} />,
          ],
          ['Media type', distribution.media_type && <code>{distribution.media_type}</code>],
          ['Size', distribution.byte_size !== undefined && formatBytes(distribution.byte_size)],
          [
            'Checksum',
            checksum?.value !== undefined && (
              <>
                {checksum.algorithm ?? 'checksum'} <code>{checksum.value}</code>
              </>
            ),
          ],
          [
            'Content identifier',
            content !== undefined && (
              <>
                <code>{content}</code> ·{' '}
                <a href={withQuery('/artifacts', { content })}>Artifacts with the same content</a>
              </>
            ),
          ],
          ['Type', distribution.conforms_to && <Term term={{ iri: distribution.conforms_to }} />],
          ['Licence', distribution.license && <ExternalLink href={distribution.license} />],
        ]}
      />
    </section>
  );
}
