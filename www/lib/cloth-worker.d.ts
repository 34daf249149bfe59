// Types for www/lib/cloth-worker.js: the script of a cloth's dedicated worker.
// It exports nothing: worker-client.js starts it with
// `new Worker(new URL('./cloth-worker.js', import.meta.url), { type: 'module' })`
// and speaks to it in the messages its header lists.
export {};
