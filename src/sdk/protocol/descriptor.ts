import { z } from 'zod';

/** Box in CSS pixels. @public */
export const RectSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
/**
 * A rectangle in viewport CSS pixels: where `locate` found an element.
 *
 * @example
 * ```ts
 * const middle = (rect: Rect) => ({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });
 * ```
 * @public
 */
export type Rect = z.infer<typeof RectSchema>;

/**
 * What the extension remembers about an element: enough to find it again after text edits,
 * id or class renames, DOM moves and restyling. The full format is docs/data-formats.md.
 * Unknown fields are kept, so a newer extension's descriptor survives an older runner.
 */
export const DescriptorSchema = z.looseObject({
  /** Format version. */
  v: z.literal(1),
  tag: z.string().min(1),
  role: z.string().optional(),
  /** Accessible name. */
  name: z.string().optional(),
  /** Visible text, whitespace folded, at most 200 characters. */
  text: z.string().optional(),
  testid: z.string().optional(),
  id: z.string().optional(),
  ariaLabel: z.string().optional(),
  /** The `name` attribute of a form control. */
  nameAttr: z.string().optional(),
  type: z.string().optional(),
  placeholder: z.string().optional(),
  href: z.string().optional(),
  classes: z.array(z.string()).optional(),
  /**
   * The names of the icons it shows (at most 3, space-separated): `twitter` for `fab fa-twitter`,
   * `person` for a Material Icons ligature (whose word is then left out of `text` and `name`).
   * For an element that says nothing and shows one image: the picture's file stem
   * (`google-play-badge` for `img/google-play-badge.svg?v=3`) or its SVG sprite symbol.
   */
  icon: z.string().optional(),
  /** The visual label of a control: `<label>`, `aria-labelledby`, or the nearest text on its row. */
  label: z.string().optional(),
  /** Text around the element: nearest heading, named region, table row. */
  context: z
    .object({
      heading: z.string().optional(),
      region: z.string().optional(),
      row: z.string().optional(),
    })
    .optional(),
  /**
   * Text of the closest ancestor that says more than the element itself (at most 4 levels up,
   * at most 200 characters): the card, row or group it sits in. Used by repair (locator-repair.md).
   */
  near: z.string().optional(),
  /** The `title` attribute. */
  title: z.string().optional(),
  /** Ancestor path from `html`, e.g. `html/body/main/form/button`. */
  path: z.string().optional(),
  /** Absolute XPath of the element in its document. */
  xpath: z.string().min(1),
  /** Box relative to the page's top-left corner, in CSS pixels. */
  rect: RectSchema.optional(),
  /** Size of the page (document scroll size) when `rect` was taken: repair compares positions relative to it. */
  page: z.object({ width: z.number(), height: z.number() }).optional(),
  /**
   * How many other visible elements of the page had the same tag and text when it was
   * recorded for the lock file (at most 9; absent when none): then its text did not tell it apart, its row,
   * card or heading did. Used by repair (locator-repair.md).
   */
  twins: z.number().int().min(0).optional(),
  /**
   * Where its twins stood when it was recorded: each twin's row text, else its heading
   * (lower-cased, at most 60 characters), up to 9, never its own. An element of its tag in one of
   * those places is that twin, never this one. Used by repair (locator-repair.md).
   */
  twinPlaces: z.array(z.string().max(60)).max(9).optional(),
  /**
   * Its place in the order of itself and its twins: how many of them stood before it in
   * document order when it was recorded (0: first). Absent when it had no twins. Repair reads
   * it only to tell apart twins that nothing else tells apart (locator-repair.md).
   */
  twinIndex: z.number().int().min(0).optional(),
  /**
   * What up to 24 elements of its kind nearest to it were called when it was recorded (their
   * text, else label, aria-label, placeholder or title; lower-cased): a candidate recognisably
   * one of them is another element, never this one. Used by repair (locator-repair.md).
   */
  peers: z.array(z.string()).max(24).optional(),
  /** The iframe that holds it (as the target named it: one, or a path of nested ones), absent for the top document. */
  frame: z.union([z.string(), z.array(z.string())]).optional(),
  /**
   * Runtime handle of the element in the document it was resolved in. Never stored in the lock
   * file: it only lets `locate` and `act` refuse when the page changed since `resolve`.
   */
  handle: z.string().optional(),
});
/**
 * What aite remembers of an element (tag, text, role, name, label, attributes, position,
 * neighbours): what `resolve` answers and the lock file stores, and what repair scores against.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const { descriptor }: { descriptor: Descriptor } = await session.locator.resolve({ text: 'Send' });
 * console.log(descriptor.tag, descriptor.role, descriptor.xpath); // what the lock file remembers
 * ```
 * @public
 */
export type Descriptor = z.infer<typeof DescriptorSchema>;

/** The descriptor without its runtime `handle`: what the lock file stores and failures quote. */
export function withoutHandle(d: Descriptor): Descriptor {
  const { handle: _handle, ...rest } = d;
  return rest as Descriptor;
}
