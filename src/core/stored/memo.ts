/**
 * A bounded memo of read results keyed by string and stamped with what they were computed from: the store's
 * write generation (any commit makes every entry stale), or the stored text a value was parsed from (an entry
 * serves only while that text is unchanged). A cached read is never older than the data it stands for.
 */
export class Memo<Stamp extends number | string = number> {
  private readonly entries = new Map<string, { generation: Stamp; value: unknown }>();

  constructor(private readonly capacity = 5000) {}

  /** The value stored under `key` at `generation`, or undefined. */
  get<T>(key: string, generation: Stamp): T | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.generation === generation ? (entry.value as T) : undefined;
  }

  /** Stores a value; when full, the oldest entries make room. */
  set(key: string, generation: Stamp, value: unknown): void {
    if (this.entries.size >= this.capacity) {
      for (const oldest of this.entries.keys()) {
        this.entries.delete(oldest);
        if (this.entries.size < this.capacity * 0.9) break;
      }
    }
    this.entries.set(key, { generation, value });
  }
}
