// The theme the player chose on this phone, applied before the page is drawn (no flash of the other theme).
// A file rather than an inline script: the Content-Security-Policy runs no inline code.
try {
  const theme = localStorage.getItem("sixdice.theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
} catch (e) { /* storage unavailable: follow the phone's setting */ }
