import { usePageTitle } from '../components/status';

export default function NotFound() {
  usePageTitle('Not found');
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no page here. Try <a href="/search">searching the registry</a>.
      </p>
    </>
  );
}
