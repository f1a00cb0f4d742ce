/* A log line that applies a rule links to it on the game's rules page (the event's "rule": an anchor there).
 * The page names the rules page and the link's label on this script's tag (data-rules, data-label). */
const me = document.querySelector("script[data-rules]");
const base = me ? me.dataset.rules : "";
const label = me ? me.dataset.label : "rule";

export function ruleLink(e) {
  if (!base || !e || typeof e.rule !== "string" || !/^[a-z-]+$/.test(e.rule)) return null;
  const a = document.createElement("a");
  a.className = "rule-link";
  a.href = base + "#" + e.rule;
  a.target = "_blank";
  a.rel = "noopener";
  // No text of its own (the line's text stays the move's words): a mark drawn by CSS, named for readers.
  a.setAttribute("aria-label", label);
  a.title = label;
  return a;
}
