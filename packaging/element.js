// Importing this module defines the <xpbd-cloth> custom element (once per page).
export * from './www/lib/xpbd-cloth-element.js';
