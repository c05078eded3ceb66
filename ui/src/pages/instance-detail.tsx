export default function Page() {
  return <h1>instance-detail</h1>;
}
