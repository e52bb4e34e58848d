// The picture an element shows when it says nothing: a store badge, a logo link, an image button
// or a sprite icon is known to a person by what it draws, and its file names it
// (docs/locator-repair.md §1, `icon`).

/** What counts as one image: an `<img>`, an image button, an outermost `<svg>`. */
const IMAGES = 'img, input[type="image" i], svg';

/**
 * The name of the one picture the element shows (itself or its only image): the stem of the
 * image's file (`google-play-badge` for `assets/img/google-play-badge.svg?v=3`, `logo` for
 * `logo.3f9a2c1b.png`), or an SVG sprite's symbol (`icon-x` for `<use href="#icon-x">`).
 * Undefined when it shows no image or more than one, or the one has no name: a `data:` URL, an
 * inline drawing, a file named by a hash alone. The caller asks only of an element that says
 * nothing (no text, no name): one that says something is known by what it says.
 */
export function pictureOf(el: Element): string | undefined {
  const images = isImage(el) ? [el] : [...el.querySelectorAll(IMAGES)].filter((x) => x.localName !== 'svg' || !x.parentElement?.closest('svg'));
  if (images.length !== 1) return undefined;
  const img = images[0]!;
  if (img.localName !== 'svg') return pictureName(img.getAttribute('src') ?? firstSrcset(img.getAttribute('srcset')));
  const uses = img.querySelectorAll('use');
  if (uses.length !== 1) return undefined;
  const href = uses[0]!.getAttribute('href') ?? uses[0]!.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
  if (!href) return undefined;
  const hash = href.indexOf('#');
  return hash >= 0 ? pictureName(href.slice(hash + 1), false) : pictureName(href);
}

function isImage(el: Element): boolean {
  return el.localName === 'img' || el.localName === 'svg' || (el.localName === 'input' && (el as HTMLInputElement).type === 'image');
}

function firstSrcset(srcset: string | null): string | undefined {
  return srcset?.trim().split(/\s+/)[0] || undefined;
}

/** A content hash a build appends to a file name (`3f9a2c1b`, vite's `BfT3x9aQ`): not part of its name. */
const HASH = /^(?=.*\d)(?:[0-9a-f]{6,}|(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9]{8,})$/;
/** A resolution variant (`logo@2x.png`): another drawing of the same picture. */
const DENSITY = /@\d+(\.\d+)?x$/;

/**
 * The name a picture's URL (or, with `file` false, a sprite symbol's id) gives it: the last path
 * segment without query, fragment, extension, resolution suffix and content hashes,
 * lower-cased. Undefined for a `data:` or `blob:` URL, or when no word of two letters is left.
 */
export function pictureName(url: string | undefined | null, file = true): string | undefined {
  let s = url?.trim();
  if (!s) return undefined;
  if (file) {
    if (/^(data|blob):/i.test(s)) return undefined;
    s = s.replace(/[?#].*$/, '').replace(/\/+$/, '');
    s = s.slice(s.lastIndexOf('/') + 1);
    try {
      s = decodeURIComponent(s);
    } catch {
      // a malformed escape is kept as written
    }
    s = s.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(DENSITY, '');
  }
  const parts = s.split(/([.\-_])/);
  // Hashes go from the end (name.hash, name-hash) or stand alone; what is left is the name.
  const kept: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const part = parts[i]!;
    if (!part || HASH.test(part)) continue;
    if (kept.length > 0) kept.push(parts[i - 1]!);
    kept.push(part);
  }
  const name = kept.join('').toLowerCase().replace(/\s+/g, '-');
  return /\p{L}{2}/u.test(name) ? name : undefined;
}
