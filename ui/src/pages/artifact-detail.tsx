export default function Page() {
  return <h1>artifact-detail</h1>;
}
