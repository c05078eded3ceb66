export default function Page() {
  return <h1>artifact-list</h1>;
}
