export default function Page() {
  return <h1>software-list</h1>;
}
