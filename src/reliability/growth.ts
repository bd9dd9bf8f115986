/**
 * Super-linear growth without a wall-clock bound: the work on one input of size n against the same work on
 * `factor` inputs of size n / factor, timed interleaved (best of `repeats`). Linear work gives a ratio near 1
 * whatever the machine's speed or load; quadratic work gives about `factor`. Only the ratio decides, and a run
 * too quick to time (under `floorMs` for the whole input) is linear by definition.
 */
export interface GrowthOptions {
  /** Inputs of size n / factor (default 8). */
  factor?: number;
  /** Best of this many interleaved timings of each side (default 3). */
  repeats?: number;
  /** Below this many ms for the whole input the work counts as linear (default 5). */
  floorMs?: number;
  /** The ratio at or above which the work counts as super-linear (default factor / 2). */
  limit?: number;
  /** Time the parts before the whole in each round (default: the whole first). */
  partsFirst?: boolean;
}

export interface Growth {
  /** Best time of the work on the whole input. */
  wholeMs: number;
  /** Best time of the work on `factor` parts, one after the other. */
  partsMs: number;
  ratio: number;
  superLinear: boolean;
}

/**
 * `run(size)` does the work on an input of `size` units; `size` is the whole input's size. A first reading that looks
 * super-linear is measured again with twice the factor and twice the repeats, and counts only if that reading is
 * super-linear too, and then once more with the parts timed first: quadratic work's ratio doubles with the factor and
 * does not depend on the order, a load spike on a busy machine does not repeat.
 */
export function growth(run: (size: number) => void, size: number, options: GrowthOptions = {}): Growth {
  const factor = options.factor ?? 8;
  const repeats = options.repeats ?? 3;
  const first = measure(run, size, factor, repeats, options);
  if (!first.superLinear || size < factor * 2) return first;
  const again = { ...options, ...(options.limit === undefined ? {} : { limit: options.limit * 2 }) };
  const confirm = measure(run, size, factor * 2, repeats * 2, again);
  if (!confirm.superLinear) return { ...first, superLinear: false };
  // a third reading, parts first: on a machine under heavy load one reading of each order can still look quadratic,
  // two in opposite orders rarely both do, while quadratic work does every time
  const third = measure(run, size, factor * 2, repeats * 2, { ...again, partsFirst: true });
  return third.superLinear ? confirm : { ...first, superLinear: false };
}

function measure(
  run: (size: number) => void,
  size: number,
  factor: number,
  repeats: number,
  options: GrowthOptions,
): Growth {
  const floorMs = options.floorMs ?? 5;
  const limit = options.limit ?? factor / 2;
  const part = Math.max(1, Math.floor(size / factor));
  let wholeMs = Infinity;
  let partsMs = Infinity;
  const whole = () => {
    const started = performance.now();
    run(size);
    wholeMs = Math.min(wholeMs, performance.now() - started);
  };
  const parts = () => {
    const started = performance.now();
    for (let i = 0; i < factor; i++) run(part);
    partsMs = Math.min(partsMs, performance.now() - started);
  };
  for (let r = 0; r < repeats; r++) {
    if (options.partsFirst) parts();
    whole();
    if (!options.partsFirst) parts();
  }
  const ratio = wholeMs / Math.max(partsMs, 0.001);
  return { wholeMs, partsMs, ratio, superLinear: wholeMs >= floorMs && ratio >= limit };
}

export function describeGrowth(g: Growth): string {
  return `${g.wholeMs.toFixed(1)} ms on the whole input, ${g.partsMs.toFixed(1)} ms on its parts (ratio ${
    g.ratio.toFixed(1)
  })`;
}
