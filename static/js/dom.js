/* Small helpers shared by the live table, the game renderers and the replay viewer. */
(function () {
  "use strict";
  window.el = function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid != null) node.append(kid);
    return node;
  };

  /* "5 dice" in the page's language: the form for n's plural category (sixdice/tables/plurals.py). */
  let forms = null;
  const rules = new Intl.PluralRules(document.documentElement.lang || "en");
  window.plural = function plural(key, n) {
    if (forms === null) {
      const node = document.getElementById("plurals");
      forms = node ? JSON.parse(node.textContent) : {};
    }
    const byCategory = forms[key] || {};
    return (byCategory[rules.select(n)] || byCategory.other || String(n)).replace("%(n)s", n);
  };
})();
