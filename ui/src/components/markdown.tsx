/** A README, rendered once the markdown module has loaded (it is fetched only when a README is shown). */
import { useEffect, useState } from 'preact/hooks';
import { Loading } from './status';

export function Markdown({
  source,
  base,
  label,
}: {
  source: string;
  base: string | undefined;
  label: string;
}) {
  const [html, setHtml] = useState<string>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setHtml(undefined);
    import('./markdown-render').then(
      ({ renderMarkdown }) => current && setHtml(renderMarkdown(source, base)),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [source, base]);
  // The text itself is still worth reading when the renderer could not be loaded.
  if (failed) return <pre class="markdown">{source}</pre>;
  if (html === undefined) return <Loading label={`Rendering ${label}…`} />;
  // Safe: markdown-it with `html: false` escapes raw HTML, and link and image URLs are checked as rendered.
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
