// Types of 'xpbd-cloth/element': importing it defines <xpbd-cloth>.
export * from './www/xpbd-cloth-element.js';
