import { installPageErrorRelay, PAGE_ERROR_CHANNEL } from './pageErrorRelay.js';

// Entry of the MAIN-world content script (manifest: "world": "MAIN", "run_at": "document_start");
// the worker also injects it into tabs that were open before the extension loaded.
installPageErrorRelay(PAGE_ERROR_CHANNEL);
