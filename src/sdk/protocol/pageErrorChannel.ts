/**
 * The name of the DOM events between the extension's page-error relay (the page's main world)
 * and its content script. The built bundles carry this placeholder; the launcher replaces it
 * with a random name in each staged extension, so a page can neither listen for the events nor
 * probe for the relay (see src/extension/content/pageErrorRelay.ts).
 */
export const PAGE_ERROR_CHANNEL = 'aite-page-error-channel-unstamped';
