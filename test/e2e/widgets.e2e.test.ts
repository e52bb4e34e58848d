import { describe, expect, it } from 'vitest';
import { WIDGET_TASKS } from '../widgets/tasks.js';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';

// Real widget libraries (devDependencies, served from node_modules by the fixture server), one
// task each, through the public Session. Each check reads the widget's own state afterwards.
const ctx = useSession();

async function runTask(id: string): Promise<void> {
  const task = WIDGET_TASKS.find((t) => t.id === id);
  if (!task) throw new Error(`no widget task ${id}`);
  await ctx.session.tab.navigate(ctx.page(task.page));
  const page = await runPage(ctx.session);
  await page.waitForFunction(task.ready, { timeout: 10_000 });
  // Not so before the task: the check would pass on an untouched widget otherwise.
  expect(await page.evaluate(task.check)).not.toEqual(task.expected);
  await task.aite(ctx.session);
  await expect.poll(() => page.evaluate(task.check), { timeout: 3000 }).toEqual(task.expected);
}

describe('widget suite', () => {
  it('[WG-EDITOR] TinyMCE (edits inside an iframe): write a line and make it a bulleted list', () => runTask('WG-EDITOR'));
  it('[WG-DATEPICKER] flatpickr: open the calendar, go to the next month, pick the 15th', () => runTask('WG-DATEPICKER'));
  it('[WG-SELECT] Tom Select: type part of a name, choose the match', () => runTask('WG-SELECT'));
  it('[WG-MODAL] SweetAlert2: confirm a destructive action in the dialog it opens', () => runTask('WG-MODAL'));
  it('[WG-SORTABLE] SortableJS: drag the first item below the last', () => runTask('WG-SORTABLE'));
  it('[WG-DROPZONE] Dropzone: click the zone and choose a file in the chooser it opens', () => runTask('WG-DROPZONE'));
  it('every widget task has a test here', () => {
    expect(WIDGET_TASKS.map((t) => t.id).sort()).toEqual(['WG-DATEPICKER', 'WG-DROPZONE', 'WG-EDITOR', 'WG-MODAL', 'WG-SELECT', 'WG-SORTABLE']);
  });
});
