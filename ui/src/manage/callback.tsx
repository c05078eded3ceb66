export default function Page() {
  return <h1>callback</h1>;
}
