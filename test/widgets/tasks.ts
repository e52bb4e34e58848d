import { resolve } from 'node:path';
import type { Page as PlaywrightPage } from 'playwright-core';
import type { Session } from '../../src/sdk/index.js';

/**
 * One task a user does with a real widget library (installed from the npm registry as a
 * devDependency, served by the fixture server under /lib/), written twice: through aite's
 * public Session and through Playwright, on the same page. `check` runs in the page after
 * either and reads the widget's own state, so a task passes only if the widget really changed.
 * Used by test/e2e/widgets.e2e.test.ts and by `npm run bench`.
 */
export interface WidgetTask {
  /** Its requirement id (test/requirements.ts). */
  id: string;
  name: string;
  /** The widget library it drives. */
  library: string;
  /** The fixture page, relative to the fixture server's root. */
  page: string;
  /** A page expression that is true once the widget is ready (both runs wait for it first). */
  ready: string;
  aite(session: Session): Promise<void>;
  playwright(page: PlaywrightPage): Promise<void>;
  /** A page expression whose value must equal `expected` after the task. */
  check: string;
  expected: unknown;
}

/**
 * The file the drop-zone task adds (11 bytes). From the working directory, the repository's root
 * for vitest and the bench alike (the bench bundles this file elsewhere, so not from its own place).
 */
const RECEIPT = resolve('test/fixtures/upload/receipt.txt');

export const WIDGET_TASKS: WidgetTask[] = [
  {
    name: 'rich-text editor in an iframe: write a line and make it a bulleted list',
    id: 'WG-EDITOR',
    library: 'tinymce',
    page: 'widgets/editor.html',
    ready: "typeof tinymce !== 'undefined' && !!tinymce.activeEditor && tinymce.activeEditor.initialized",
    async aite(session) {
      await session.type({ css: '#tinymce', frame: 'note_ifr' }, 'Buy milk');
      await session.click({ role: 'button', name: 'Bullet list' });
      await session.verify.exists({ css: 'ul > li', frame: 'note_ifr' });
    },
    async playwright(page) {
      await page.frameLocator('#note_ifr').locator('#tinymce').pressSequentially('Buy milk');
      await page.getByRole('button', { name: 'Bullet list' }).click();
      await page.frameLocator('#note_ifr').locator('ul > li').waitFor();
    },
    check: 'tinymce.activeEditor.getContent()',
    expected: '<ul>\n<li>Buy milk</li>\n</ul>',
  },
  {
    name: 'date picker: open it, go to the next month, pick the 15th',
    id: 'WG-DATEPICKER',
    library: 'flatpickr',
    page: 'widgets/datepicker.html',
    ready: '!!window.picker',
    async aite(session) {
      await session.click({ placeholder: 'Pick a date' });
      await session.click({ css: '.flatpickr-calendar.open .flatpickr-next-month' });
      await session.click({ css: '.flatpickr-calendar.open .flatpickr-day[aria-label="April 15, 2026"]' });
      await session.verify.value({ placeholder: 'Pick a date' }, '2026-04-15');
    },
    async playwright(page) {
      await page.click('#date');
      await page.click('.flatpickr-calendar.open .flatpickr-next-month');
      await page.click('.flatpickr-calendar.open .flatpickr-day[aria-label="April 15, 2026"]');
    },
    check: "[document.getElementById('date').value, picker.selectedDates.length, picker.isOpen]",
    expected: ['2026-04-15', 1, false],
  },
  {
    name: 'searchable select: type part of a name, choose the match',
    id: 'WG-SELECT',
    library: 'tom-select',
    page: 'widgets/select.html',
    ready: '!!window.countrySelect',
    async aite(session) {
      await session.type({ role: 'combobox', name: 'Country' }, 'nor');
      // Tom Select filters as it is typed into, and marks the first match active; Enter chooses it.
      // Not a click: it runs its filter again 300 ms after the last key (`refreshThrottle`), taking
      // the options out and putting them back, and a press and release around that get no click
      // (aite fails saying so; the rerender suite shows it). Nothing on the page tells when it has.
      // The native <select> Tom Select hides (visually, not from the accessibility tree) has a
      // "Norway" option too: the ones meant are in the dropdown's listbox.
      await session.verify.count({ role: 'option', within: { role: 'listbox', name: 'Country' } }, 1);
      await session.press('Enter');
      await session.verify.text('Norway', { within: { css: '.ts-control' } });
    },
    async playwright(page) {
      await page.locator('#country-ts-control').pressSequentially('nor');
      // The same wait: Norway shown, and no second option.
      const options = page.getByRole('listbox', { name: 'Country' }).getByRole('option');
      await options.filter({ hasText: 'Norway' }).waitFor();
      await options.nth(1).waitFor({ state: 'detached' });
      await page.keyboard.press('Enter');
    },
    check: "[document.getElementById('country').value, countrySelect.getValue()]",
    expected: ['NO', 'NO'],
  },
  {
    name: 'modal dialog: confirm a destructive action in the dialog it opens',
    id: 'WG-MODAL',
    library: 'sweetalert2',
    page: 'widgets/modal.html',
    ready: "typeof Swal !== 'undefined'",
    async aite(session) {
      await session.click({ role: 'button', name: 'Delete account' });
      await session.click({ role: 'button', name: 'Yes, delete it', within: 'Delete the account?' });
      await session.verify.text('deleted', { within: { css: 'p' } });
    },
    async playwright(page) {
      await page.getByRole('button', { name: 'Delete account' }).click();
      await page.getByRole('button', { name: 'Yes, delete it' }).click();
      await page.locator('#status', { hasText: 'deleted' }).waitFor();
    },
    check: "[window.answers.join(','), document.getElementById('status').textContent, !!document.querySelector('.swal2-container')]",
    expected: ['confirmed', 'deleted', false],
  },
  {
    id: 'WG-SORTABLE',
    library: 'sortablejs',
    name: 'sortable list: drag the first item below the last',
    // The drag suite's page (SortableJS as it ships, HTML5 drag and drop).
    page: 'sortable.html',
    ready: "typeof Sortable !== 'undefined' && !!Sortable.get(document.getElementById('list'))",
    async aite(session) {
      await session.drag({ text: 'Alpha' }, { text: 'Gamma' });
    },
    async playwright(page) {
      await page.getByText('Alpha', { exact: true }).dragTo(page.getByText('Gamma', { exact: true }));
    },
    check: "[[...document.querySelectorAll('#list li')].map((li) => li.textContent.trim()).join(','), document.getElementById('ends').textContent]",
    expected: ['Beta,Gamma,Alpha', '1'],
  },
  {
    id: 'WG-DROPZONE',
    library: 'dropzone',
    name: 'file drop zone: click it and choose a file',
    page: 'widgets/dropzone.html',
    ready: '!!window.zone',
    async aite(session) {
      // The zone opens a file chooser when clicked: aite intercepts and answers it.
      await session.upload({ text: 'Drop receipts here or click to choose' }, RECEIPT);
      await session.verify.text('receipt.txt');
    },
    async playwright(page) {
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByText('Drop receipts here or click to choose').click()]);
      await chooser.setFiles(RECEIPT);
    },
    check: "[window.added.join(','), zone.files.length]",
    expected: ['receipt.txt:11', 1],
  },
];
