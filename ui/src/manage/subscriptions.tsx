export default function Page() {
  return <h1>subscriptions</h1>;
}
