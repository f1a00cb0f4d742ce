/* Small helpers shared by the live table, the game boards, the lesson and the replay viewer:
 * el (build an element), plural ("5 dice" in the page's language), redraw (replace a board's
 * children and keep keyboard focus), put (change a property only when it differs) and toast (the short
 * message at the bottom of a table page). */

export function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid != null) node.append(kid);
  return node;
}

/* node[key] = value, only when it differs: the page's once-a-second checks write nothing while nothing
 * changes (a write of the same value still makes the browser recompute the page's style and draw it again). */
export function put(node, key, value) {
  if (node && node[key] !== value) node[key] = value;
}

/* "5 dice" in the page's language: the form for n's plural category (sixdice/tables/core/plural_forms.py). */
let forms = null;
const rules = new Intl.PluralRules(document.documentElement.lang || "en");
export function plural(key, n) {
  if (forms === null) {
    const node = document.getElementById("plurals");
    forms = node ? JSON.parse(node.textContent) : {};
  }
  const byCategory = forms[key] || {};
  return (byCategory[rules.select(n)] || byCategory.other || String(n)).replace("%(n)s", n);
}

/* Replace a board's children, then give focus back to the control that had it (same data-* keys; a game's
 * board may name more keys of its own). */
export function redraw(board, nodes, ownKeys = []) {
  const a = document.activeElement;
  let sel = null;
  if (a && a !== document.body && board.contains(a)) {
    const keys = ["data-act", "data-seat", "data-i", "data-key", "data-face", "data-value", "data-cand", "data-opt", ...ownKeys];
    const parts = keys.filter((k) => a.hasAttribute(k)).map((k) => `[${k}="${CSS.escape(a.getAttribute(k))}"]`);
    sel = parts.length ? a.tagName.toLowerCase() + parts.join("") : null;
  }
  board.replaceChildren(...nodes);
  if (sel) {
    const b = board.querySelector(sel);
    if (b && !b.disabled) b.focus({preventScroll: true});
  }
}

/* The page's #toast says `text` for `ms` milliseconds (0: until the next toast). */
let toastTimer = 0;
export function toast(text, ms = 5000) {
  const t = document.getElementById("toast");
  if (!t) return;
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  if (ms) toastTimer = setTimeout(() => { t.hidden = true; }, ms);
}
