export default function Page() {
  return <h1>page</h1>;
}
