import { earsOf } from './guardTap.js';

// Entry of the isolated-world content script at document_start (manifest: "run_at":
// "document_start"), before the page's first script: the guard's listeners go first on the
// window's capture phase (guardTap.ts).
earsOf(window);
