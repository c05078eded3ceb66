export default function Page() {
  return <h1>type-list</h1>;
}
