import { installPageErrorRelay } from './pageErrorRelay.js';

// Entry for a MAIN-world content script (manifest: "world": "MAIN", "run_at": "document_start"),
// for builds that list it; the worker can instead inject installPageErrorRelay itself.
installPageErrorRelay();
