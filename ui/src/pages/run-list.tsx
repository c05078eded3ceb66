export default function Page() {
  return <h1>run-list</h1>;
}
