// The language menu in the header: a choice applies at once (the form's button shows without JavaScript).
// A file rather than an onchange attribute: the Content-Security-Policy runs no inline code.
document.getElementById("lang-select")?.addEventListener("change", (event) => event.target.form.submit());
