/** The closest of `known` to `word`, when it is close enough to be a typo of it. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(word.length, best.length) / 3)) ? best : undefined;
}

/** ` Did you mean "click"?`, or nothing. */
export function didYouMean(word: string, known: readonly string[]): string {
  // The word itself may be known elsewhere (a step's "profile" is not a config's "profiles").
  const match = closest(word, known.filter((k) => k !== word));
  return match && match !== word ? ` Did you mean "${match}"?` : '';
}

/** Edit distance where swapping two neighbouring letters counts as one edit (typos do that). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Options other tools take (Playwright's, puppeteer's; getByRole's, which a target is refused
 * with) and aite does not, with what to do instead: the one table the step scripts, the config,
 * the composed steps, the targets and the SDK's calls all refuse them with. `aite` is aite's name for the same thing, when it has one.
 */
const FOREIGN_OPTIONS: ReadonlyMap<string, { aite?: string; advice: string }> = new Map([
  ['timeout', { aite: 'timeoutMs', advice: 'aite calls it "timeoutMs" (milliseconds).' }],
  [
    'force',
    {
      advice:
        "aite has no force: it acts only where a person could (the element visible, enabled and not covered), and otherwise says what is in the way. Make the element reachable first (close what covers it, hover the row that shows it, open its section), or call the page's own code with evaluate.",
    },
  ],
  ['delay', { advice: 'Only click takes delay (how long its button is held down: a long press); keys are sent without pauses between them.' }],
  ['noWaitAfter', { advice: "aite always waits, within the step's time, for the navigation its input starts; leave it out." }],
  ['trial', { advice: 'aite has no trial run: locator.locate() finds the element and checks that it can be acted on, without acting.' }],
  ['strict', { advice: 'aite is always strict: a target that matches several elements fails as ambiguous; leave it out.' }],
  ['waitUntil', { advice: "aite always waits for the page's load event (and a navigation's commit before it); leave it out." }],
  ['clip', { advice: 'aite pictures one element with "target" (or the whole page with "fullPage") instead of a clip rectangle.' }],
  ['ignoreCase', { advice: 'aite compares text without case and spacing already; "exact" (verify.targetText) keeps case.' }],
  // Playwright's getByRole option a target has no key for (its others are a role target's filters).
  ['includeHidden', { advice: 'aite finds only what a person can see; a hidden match fails not-visible saying why it is hidden and what to do.' }],
]);

/**
 * What to do instead of an option other tools take and aite does not (Playwright's `timeout`,
 * `force`, ...): a sentence beginning with a space, or undefined for an option no tool is known
 * to take.
 */
export function foreignOption(key: string): string | undefined {
  const foreign = FOREIGN_OPTIONS.get(key);
  return foreign && ` ${foreign.advice}`;
}

/** aite's name for another tool's option (`timeout` -> `timeoutMs`), when aite has the same thing under another name. */
export function aiteNameOf(key: string): string | undefined {
  return FOREIGN_OPTIONS.get(key)?.aite;
}
