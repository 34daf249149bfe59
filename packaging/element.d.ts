// Types of 'xpbd-cloth/element': importing it defines <xpbd-cloth>.
export * from './www/lib/xpbd-cloth-element.js';
