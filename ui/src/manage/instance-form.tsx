export default function Page() {
  return <h1>instance-form</h1>;
}
