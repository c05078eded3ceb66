export default function Page() {
  return <h1>release-detail</h1>;
}
