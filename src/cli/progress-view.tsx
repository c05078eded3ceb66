import { Box, render, Text } from 'ink';
import type { ProgressFrame, ProgressView } from './progress.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const BAR_WIDTH = 24;

function Bar({ fraction }: { fraction: number }) {
  const filled = Math.round(fraction * BAR_WIDTH);
  return (
    <Text>
      <Text color="cyan">{'━'.repeat(filled)}</Text>
      <Text dimColor>{'━'.repeat(BAR_WIDTH - filled)}</Text>
    </Text>
  );
}

function Live({ frame }: { frame: ProgressFrame }) {
  return (
    <Box>
      <Text wrap="truncate-end">
        {frame.fraction === undefined ? (
          <Text color="cyan">{SPINNER[frame.tick % SPINNER.length]} </Text>
        ) : null}
        <Text bold>{frame.label}</Text>{' '}
        {frame.fraction === undefined ? null : (
          <>
            <Bar fraction={frame.fraction} />{' '}
          </>
        )}
        {frame.text}
      </Text>
    </Box>
  );
}

function Final({ line }: { line: string }) {
  return <Text color="green">{line}</Text>;
}

/** Draws progress frames on a terminal (stderr) with ink; the final line stays when it ends. */
export function renderProgress(stream: NodeJS.WriteStream): ProgressView {
  let view: ReturnType<typeof render> | undefined;
  return {
    draw: (frame) => {
      if (view === undefined)
        view = render(<Live frame={frame} />, {
          stdout: stream,
          stderr: stream,
          patchConsole: false,
          exitOnCtrlC: false,
          maxFps: 10,
        });
      else view.rerender(<Live frame={frame} />);
    },
    end: (finalLine) => {
      if (view === undefined) {
        if (finalLine !== undefined) stream.write(`${finalLine}\n`);
        return;
      }
      if (finalLine === undefined) view.clear();
      else view.rerender(<Final line={finalLine} />);
      view.unmount();
    },
  };
}
