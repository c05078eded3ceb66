export default function Page() {
  return <h1>release-form</h1>;
}
