import { render, Text } from 'ink';
import type { Progress } from './progress.js';

function Line({ label, done, unit }: { label: string; done: number; unit: string }) {
  return (
    <Text>
      <Text color="cyan">{label}</Text> {done.toLocaleString('en')} {unit}
    </Text>
  );
}

/** Renders a live progress line on stderr with ink. */
export function renderProgress(label: string, unit: string): Progress {
  const view = render(<Line label={label} done={0} unit={unit} />, {
    stdout: process.stderr as unknown as NodeJS.WriteStream,
    patchConsole: false,
  });
  return {
    update: (done) => view.rerender(<Line label={label} done={done} unit={unit} />),
    finish: () => view.unmount(),
  };
}
