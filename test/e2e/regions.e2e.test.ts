import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// "The checkbox in the row that says Buy milk", said as a target, through the public Session.
const ctx = useSession();

describe('rows and cards as regions', () => {
  it('[RG-ROW, RG-CARD, RG-AMBIGUOUS] check the item that says Buy milk, delete the one that says Call mum, archive the card that says Pay rent', async () => {
    await ctx.session.tab.navigate(ctx.page('todos.html'));
    await ctx.session.check({ role: 'checkbox', within: 'Buy milk' });
    await ctx.session.verify.state({ role: 'checkbox', within: 'Buy milk' }, 'checked');
    await ctx.session.verify.state({ role: 'checkbox', within: 'Buy bread' }, 'unchecked');
    await ctx.session.verify.text('2 items left');
    await ctx.session.click({ role: 'button', name: 'Delete', within: 'Call mum' });
    await ctx.session.verify.exists({ text: 'Call mum' }, { negate: true });
    await ctx.session.verify.count({ role: 'checkbox' }, 2);
    await ctx.session.click({ role: 'button', name: 'Archive', within: 'Pay rent' });
    expect((await ctx.session.locator.read({ css: '#archived' })).text).toBe('Pay rent');
    // "Buy" is in two rows: refused, nothing clicked.
    const twice = await failure(ctx.session.click({ role: 'button', name: 'Delete', within: 'Buy' }, { timeoutMs: 400 }));
    expect(twice.reason).toBe('ambiguous');
    await ctx.session.verify.count({ role: 'checkbox' }, 2);
  });
});
