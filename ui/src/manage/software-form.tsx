export default function Page() {
  return <h1>software-form</h1>;
}
