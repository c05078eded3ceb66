import { render, Text } from 'ink';

/** A progress line for long work, shown on stderr only when it is a terminal. */
export interface Progress {
  update(done: number): void;
  finish(): void;
}

function Line({ label, done, unit }: { label: string; done: number; unit: string }) {
  return (
    <Text>
      <Text color="cyan">{label}</Text> {done.toLocaleString('en')} {unit}
    </Text>
  );
}

/** Starts a progress line; a no-op when stderr is not a terminal, so pipes and CI logs stay clean. */
export function startProgress(label: string, unit: string): Progress {
  if (process.stderr.isTTY !== true) return { update: () => undefined, finish: () => undefined };
  const view = render(<Line label={label} done={0} unit={unit} />, {
    stdout: process.stderr as unknown as NodeJS.WriteStream,
    patchConsole: false,
  });
  return {
    update: (done) => view.rerender(<Line label={label} done={done} unit={unit} />),
    finish: () => view.unmount(),
  };
}
