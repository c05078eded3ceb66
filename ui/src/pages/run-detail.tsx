export default function Page() {
  return <h1>run-detail</h1>;
}
