// One DOM helper the experiments page's modules share.

/**
 * A new `tag` element with `attributes` (`text` sets its text, `className` its
 * class, any other name an attribute) and `children` appended.
 */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}
