/** Status badges (health, run status, availability), and what each availability means. */
import type { Availability as AvailabilityValue, RunStatus } from '../api';
import './browse.css';

type Tone = 'ok' | 'error' | 'warn' | 'plain';

/** Every run status and availability has a tone, so a new value of the record specs is not left plain. */
const RUN_TONES = {
  success: 'ok',
  failed: 'error',
  aborted: 'error',
  running: 'warn',
} satisfies Record<RunStatus, Tone>;
const AVAILABILITY_TONES = {
  public: 'ok',
  restricted: 'warn',
  embargoed: 'warn',
  'metadata-only': 'plain',
} satisfies Record<AvailabilityValue, Tone>;

const TONES: Readonly<Record<string, Readonly<Record<string, Tone>>>> = {
  health: { up: 'ok', down: 'error', unknown: 'warn' },
  run: RUN_TONES,
  availability: AVAILABILITY_TONES,
};

/** What each availability means for someone who wants the bytes. */
export const AVAILABILITY_MEANING: Readonly<Record<string, string>> = {
  public: 'anyone may download it',
  restricted: 'access needs a credential or permission',
  embargoed: 'not obtainable until the embargo ends',
  'metadata-only': 'only described here; the bytes are not obtainable',
} satisfies Record<AvailabilityValue, string>;

/** The availability values as filter choices. */
export const AVAILABILITY_OPTIONS = Object.keys(AVAILABILITY_MEANING).map(
  (value) => [value, value.replace('-', ' ')] as const,
);

/** A status word in a badge; the colour only repeats what the word says. */
export function Badge({ of, value, label }: { of: keyof typeof TONES; value: string; label?: string }) {
  const tone = TONES[of]?.[value] ?? 'plain';
  return <span class={tone === 'plain' ? 'badge' : `badge badge-${tone}`}>{label ?? value}</span>;
}

/** An availability badge with what it means (in words, or only on hover where space is short). */
export function Availability({ value, brief = false }: { value: string | undefined; brief?: boolean }) {
  if (value === undefined) return null;
  const meaning = AVAILABILITY_MEANING[value];
  return (
    <span title={brief ? meaning : undefined}>
      <Badge of="availability" value={value} label={value.replace('-', ' ')} />
      {!brief && meaning !== undefined && <span class="status"> — {meaning}</span>}
    </span>
  );
}
