export default function Page() {
  return <h1>type-detail</h1>;
}
