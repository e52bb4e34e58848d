import { CommandFailure, type Descriptor } from '../../sdk/protocol/index.js';
import { enterFrames } from './frames.js';
import { elementByXPath } from './dom/xpath.js';
import { formatElement, q } from './explain.js';
import { handles } from './Handles.js';

/**
 * The element a descriptor names, for `locate` and `act`: by its handle when it has one (and
 * only if the handle is from this very document and the element is still in it), else by its
 * xpath with the same tag. Never another element: a stale handle is a failure, not a search.
 */
export function elementFromDescriptor(d: Descriptor): Element {
  // The frame first: a cross-site frame on the way is a frame hop (its handle is not from here).
  let doc = document;
  if (d.frame !== undefined) {
    const f = enterFrames(d.frame);
    if (f.kind !== 'found') {
      throw new CommandFailure('not-found', `The iframe ${q(f.segment)} that held the <${d.tag}> ${label(d)}is not in the page; resolve again.`, { frame: d.frame, xpath: d.xpath });
    }
    doc = f.doc;
  }
  if (d.handle !== undefined) {
    const found = handles.lookup(d.handle);
    switch (found.kind) {
      case 'found':
        return found.element;
      case 'gone':
        throw new CommandFailure(
          'not-found',
          `The <${d.tag}> ${label(d)}was removed from the page since resolve (the page re-rendered it); resolve again.`,
          { handle: d.handle, xpath: d.xpath, stale: 'removed' },
        );
      case 'other-document':
        throw new CommandFailure(
          'not-found',
          `The <${d.tag}> ${label(d)}was resolved in another document: the page changed (navigated or reloaded) since resolve; resolve again.`,
          { handle: d.handle, xpath: d.xpath, stale: 'other-document' },
        );
      case 'malformed':
        throw new CommandFailure('internal', `The descriptor's handle ${q(d.handle)} is not one this content script gives out.`, { handle: d.handle });
    }
  }
  const el = elementByXPath(doc, d.xpath);
  if (!el) {
    throw new CommandFailure('not-found', `Nothing is at ${d.xpath} any more, where the <${d.tag}> ${label(d)}was; resolve again.`, { xpath: d.xpath });
  }
  if (el.localName !== d.tag.toLowerCase()) {
    throw new CommandFailure(
      'not-found',
      `At ${d.xpath} there is now ${formatElement(el)}, not the remembered <${d.tag}> ${label(d)}; resolve again.`,
      { xpath: d.xpath, found: el.localName },
    );
  }
  return el;
}

function label(d: Descriptor): string {
  const t = d.text ?? d.name ?? d.label;
  return t ? `${q(t.length > 40 ? `${t.slice(0, 39)}…` : t)} ` : '';
}
