export default function Page() {
  return <h1>instance-list</h1>;
}
