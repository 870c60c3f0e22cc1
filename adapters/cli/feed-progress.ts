import type { CliIo } from './cli-io.js';
import type { FeedProgress } from './feed-broker.js';
import { Progress } from './seed/progress.js';

/** Fewer items than this take a moment: no progress line. */
export const FEED_PROGRESS_MIN_ITEMS = 1_000;

export interface FeedProgressLine extends FeedProgress {
  /** Ends the line (on a terminal, it is redrawn in place until then); call it whatever the outcome. */
  end(): void;
}

/**
 * Progress of a long `feed` command on stderr, as `seed demo` shows it (one line redrawn on a terminal,
 * plain lines at every tenth otherwise), once the broker tells how many items there are.
 */
export function feedProgress(io: CliIo, label: string, minItems = FEED_PROGRESS_MIN_ITEMS): FeedProgressLine {
  let progress: Progress | null = null;
  return {
    start(total) {
      if (total >= minItems) progress = new Progress(io, label, total);
    },
    advance(count) {
      progress?.advance(count);
    },
    end() {
      progress?.finish();
      progress = null;
    },
  };
}
