/**
 * Small DOM helpers shared by the page modules.
 */

/**
 * Creates an element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | undefined>} [attrs]
 * @param {(Node | string | null | undefined)[]} [children]
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') node.className = String(value);
    else if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child);
  }
  return node;
}

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from the page`);
  return node;
}

/**
 * Formats a timestamp as local "YYYY-MM-DD HH:MM".
 * @param {number} ms
 */
export function formatTime(ms) {
  const d = new Date(ms);
  const p = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** @param {number} n */
export function formatNumber(n) {
  return n.toLocaleString('en-US');
}

/**
 * A text block that shows the first lines and expands on click when the text is long.
 * @param {string} text
 * @param {number} [limit]
 */
export function collapsibleText(text, limit = 280) {
  const body = el('div', { class: 'text' });
  if (text.length <= limit) {
    body.textContent = text;
    return body;
  }
  body.textContent = `${text.slice(0, limit)}…`;
  const toggle = el('button', { type: 'button', class: 'more', text: 'more' });
  let open = false;
  toggle.addEventListener('click', () => {
    open = !open;
    body.textContent = open ? text : `${text.slice(0, limit)}…`;
    toggle.textContent = open ? 'less' : 'more';
    body.append(toggle);
  });
  body.append(toggle);
  return body;
}
