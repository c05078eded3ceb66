export default function Page() {
  return <h1>software-detail</h1>;
}
