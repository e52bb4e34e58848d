/**
 * The browser permissions `launch({ permissions })` and the config's `permissions` may grant to
 * the allowed origins (see LaunchOptions.permissions).
 * @internal
 */
export const BROWSER_PERMISSIONS = ['clipboard-read', 'clipboard-write', 'notifications'] as const;
