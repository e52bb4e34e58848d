import { describe, expect, it } from 'vitest';
import { launch } from '../../src/sdk/index.js';
import { useSession } from './support/harness.js';

const ctx = useSession({ permissions: ['clipboard-read', 'clipboard-write'] });

describe('[LAUNCH-PERMISSIONS] launch grants browser permissions to the allowed origins', () => {
  it('a copy button\'s text can be read back from the clipboard', async () => {
    await ctx.session.tab.navigate(ctx.page('clipboard.html'));
    await ctx.session.click('Copy link');
    await ctx.session.verify.text('Copied');
    expect(await ctx.session.evaluate(() => navigator.clipboard.readText())).toBe('https://example.test/invite/42');
    // The page's own permission query agrees.
    expect(await ctx.session.evaluate(async () => (await navigator.permissions.query({ name: 'clipboard-read' as PermissionName })).state)).toBe('granted');
  });

  it('a permission aite does not grant is refused before Chrome starts, naming the ones it does', async () => {
    const error = await launch({ allow: [ctx.server.origin], permissions: ['camera' as never] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.name).toBe('UsageError');
    expect(error?.message).toMatch(/permissions\[0\].*"clipboard-read", "clipboard-write", "notifications".*got the text "camera"/s);
  });
});
