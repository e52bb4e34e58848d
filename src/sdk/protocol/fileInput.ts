// What both ends send into a page to find a file input: one copy of the lookup.

/**
 * Runs in the page's main world, as source text (the SDK is built without the DOM's types and
 * never touches a document itself; the pipe and attach mode's debugger both send it): the file
 * input at `xpath`, the input of the `<label>` there, `'other'` for any other element, `'gone'`
 * when the path leads nowhere.
 */
export const FIND_FILE_INPUT = `(xpath, tag) => {
  // Our paths step into shadow roots with "/#shadow-root"; each part is plain XPath.
  let scope = document;
  let el = null;
  for (const [i, part] of xpath.split('/#shadow-root').entries()) {
    const found = document.evaluate(i === 0 ? part : '.' + part, scope, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    el = found instanceof Element ? found : null;
    if (!el) return 'gone';
    scope = el.shadowRoot ?? el;
  }
  if (!el || el.localName !== tag.toLowerCase()) return 'gone';
  if (el instanceof HTMLInputElement && el.type === 'file') return el;
  const control = el.closest('label')?.control;
  return control instanceof HTMLInputElement && control.type === 'file' ? control : 'other';
}`;

/**
 * Runs in a document (as source text, like FIND_FILE_INPUT; the pipe and attach mode's debugger
 * both send it): the iframe `spec` names, by the rule of the content script's `framesNamed` (its
 * name, else id, else title, else as a CSS selector), or how many it names when that is not one.
 */
export const FIND_FRAME = `(spec) => {
  const frames = [...document.querySelectorAll('iframe, frame')];
  const css = (f) => {
    try {
      return f.matches(spec);
    } catch {
      return false;
    }
  };
  for (const test of [(f) => f.getAttribute('name') === spec, (f) => f.id === spec, (f) => f.getAttribute('title') === spec, css]) {
    const hits = frames.filter(test);
    if (hits.length > 0) return hits.length === 1 ? hits[0] : hits.length;
  }
  return 0;
}`;
