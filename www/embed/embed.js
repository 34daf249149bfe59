// The mountCloth half of the embedding example (www/embed/index.html). (The <xpbd-cloth> half needs no script of
// its own beyond loading xpbd-cloth-element.js.)
//
// For tests and curious users: `window.mountedCloth` is this canvas' controller;
// the element's controller is `document.querySelector('#element-cloth').controller`.

import { mountCloth } from '../lib/cloth.js';

const canvas = document.getElementById('mounted-cloth');

try {
  window.mountedCloth = await mountCloth(canvas, {
    width: 30,
    height: 20,
    fixed: 4,
    onError: (error) => console.warn(`mounted cloth: ${error.message}`),
  });
} catch (error) {
  console.error(`the mounted cloth could not start: ${error.message}`);
}
