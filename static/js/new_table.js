/* The Six-Dice new-table form: which real dice are asked only with real dice, and "how many dice" follows
 * the form (the server computes it from the game's options: GET <data-url>?<the form's fields>). */
const box = document.getElementById("dice-needed");
const form = box && box.closest("form");
const faces = document.getElementById("dice-faces");

function syncFaces() {
  const real = form.querySelector('input[name="dice"][value="physical"]');
  if (faces && real) faces.disabled = !real.checked;  // a disabled fieldset sends nothing: app dice need no faces
}

// While an answer is on its way the box is aria-busy (a screen reader waits for it; a test waits for it too, since
// the answer may change the box's height and move every control below it).
let asked = 0;
async function refresh() {
  const n = ++asked;
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (key !== "csrfmiddlewaretoken") params.append(key, value);
  box.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(box.dataset.url + "?" + params.toString(), {headers: {Accept: "application/json"}});
    if (!response.ok || n !== asked) return;
    const data = await response.json();
    if (n === asked) box.innerHTML = data.html;  // the server's own template, escaped by Django
  } catch (e) {
    /* offline: the figure of the last answer stays */
  } finally {
    if (n === asked) box.removeAttribute("aria-busy");  // the last question asked has its answer (or none comes)
  }
}

if (form) {
  syncFaces();
  form.addEventListener("change", () => { syncFaces(); refresh(); });
  form.addEventListener("input", (e) => { if (e.target.matches('input[inputmode="numeric"]')) refresh(); });
  refresh();  // the form may come back filled (a refused table): say it for what it holds
}
