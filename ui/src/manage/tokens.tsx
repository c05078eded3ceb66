export default function Page() {
  return <h1>tokens</h1>;
}
