import { AiteError, type Session, type Target } from 'aite';
import type { Page, SerializedAXNode } from 'puppeteer-core';

// The page as an outline for the agent, until the Session has its own snapshot page command
// (issue 16 item 8): read from Chrome's accessibility tree over the debugging pipe
// (`session.browser`, the public escape hatch), with refs (`e12`) that this server turns into
// the XPath of their element. A ref is good until the next snapshot; a page that re-rendered
// the element makes it not-found, and a new snapshot is the answer.

/** Roles that are only structure: their children are shown in their place. */
const PLAIN = new Set(['generic', 'none', 'presentation', 'RootWebArea', 'LineBreak', 'InlineTextBox']);
/** Roles an agent acts on or reads: these get refs. */
const REFERABLE = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'heading', 'status', 'alert', 'dialog', 'img', 'cell',
]);

/** The refs of the last snapshot, by name. */
export class SnapshotRefs {
  #xpaths = new Map<string, string>();

  /** The target a ref stands for, or the target as given. */
  resolve(target: unknown): unknown {
    if (typeof target !== 'object' || target === null || !('ref' in target)) return target;
    const ref = String((target as { ref: unknown }).ref);
    const xpath = this.#xpaths.get(ref);
    if (!xpath) throw new AiteError('not-found', `There is no ref ${ref} in the last snapshot${this.#xpaths.size ? '' : ' (none was taken yet)'}: take a snapshot and use one of its refs.`);
    return { xpath } satisfies Target;
  }

  /** Replaces the refs with those of a new snapshot. */
  replace(xpaths: Map<string, string>): void {
    this.#xpaths = xpaths;
  }
}

/** The outline of the run's tab: `- role "name" [state] [ref=e3]`, nested by two spaces. */
export async function pipeSnapshot(session: Session, refs: SnapshotRefs, maxLines = 400): Promise<{ text: string; url: string; title: string; lines: number; refs: number; truncated: boolean }> {
  const page = await runPage(session);
  const root = await page.accessibility.snapshot({ interestingOnly: true, includeIframes: true });
  const lines: string[] = [];
  const xpaths = new Map<string, string>();
  let truncated = false;
  const walk = async (axNode: SerializedAXNode, depth: number): Promise<void> => {
    let node = axNode;
    if (lines.length >= maxLines) {
      truncated = true;
      return;
    }
    let childDepth = depth;
    if (!PLAIN.has(node.role) && !(node.role === 'StaticText' && !node.name?.trim())) {
      const role = node.role === 'StaticText' ? 'text' : node.role;
      const states = [
        node.checked !== undefined ? (node.checked === true ? 'checked' : node.checked === 'mixed' ? 'mixed' : 'unchecked') : '',
        node.disabled ? 'disabled' : '',
        node.expanded !== undefined ? (node.expanded ? 'expanded' : 'collapsed') : '',
        node.selected ? 'selected' : '',
        node.required ? 'required' : '',
        node.level ? `level=${node.level}` : '',
      ].filter(Boolean);
      let ref = '';
      if (REFERABLE.has(node.role)) {
        const xpath = await xpathOf(node);
        if (xpath) {
          ref = `e${xpaths.size + 1}`;
          xpaths.set(ref, xpath);
        }
      }
      const kids = node.children ?? [];
      const text = !node.name && kids.length > 0 && kids.every((k) => k.role === 'StaticText') ? kids.map((k) => k.name ?? '').join(' ').trim() : '';
      const shown = node.value !== undefined && node.value !== '' && node.value !== node.name ? String(node.value) : text;
      const value = shown ? `: ${JSON.stringify(shown)}` : '';
      if (text) node = { ...node, children: [] } as SerializedAXNode;
      lines.push(`${'  '.repeat(depth)}- ${role}${node.name ? ` ${JSON.stringify(node.name)}` : ''}${states.map((s) => ` [${s}]`).join('')}${ref ? ` [ref=${ref}]` : ''}${value}`);
      childDepth = depth + 1;
    }
    for (const child of node.children ?? []) await walk(child, childDepth);
  };
  if (root) await walk(root, 0);
  if (truncated) lines.push(`- … more of the page not shown (maxLines ${maxLines})`);
  refs.replace(xpaths);
  return { text: lines.join('\n'), url: page.url(), title: await page.title(), lines: lines.length, refs: xpaths.size, truncated };
}

async function xpathOf(node: SerializedAXNode): Promise<string | undefined> {
  const handle = await node.elementHandle().catch(() => null);
  if (!handle) return undefined;
  try {
    return await handle.evaluate((start) => {
      // Node types: 1 element, 3 text, 9 document.
      let el: Node | null = start.nodeType === 3 ? start.parentNode : start;
      const parts: string[] = [];
      while (el && el.nodeType === 1) {
        const e = el as Element;
        let i = 1;
        for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === e.localName) i++;
        parts.unshift(`${e.localName}[${i}]`);
        el = e.parentNode;
      }
      // An element in a shadow root or a frame has no path from the top document: no ref.
      return el && el.nodeType === 9 && (el as Document).defaultView === (el as Document).defaultView?.top ? `/${parts.join('/')}` : '';
    }) || undefined;
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}

/** The run's tab over the pipe: the page showing the run's tab's URL. */
async function runPage(session: Session): Promise<Page> {
  const browser = session.browser;
  if (!browser) throw new AiteError('unsupported', 'snapshot needs the debugging pipe, which attach mode has none of (in this version); use read and verify instead.');
  const current = session.tab.current;
  if (current === null) throw new AiteError('tab-closed', 'There is no run tab yet: navigate first.');
  const info = (await session.tab.list()).find((tab) => tab.id === current);
  const pages = (await browser.pages()).filter((p) => p.url() === info?.url);
  const page = pages.at(-1);
  if (!info || !page) throw new AiteError('tab-closed', `The run's tab ${current} is not open any more: call tabs, then switch_tab or navigate.`);
  return page;
}
