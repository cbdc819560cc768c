// The running totals under every row: shown or hidden at once, remembered on this phone in the
// cookie the server reads (scoresheet/theme.py); without JavaScript the link does it.

document.addEventListener("click", (event) => {
  const running = event.target.closest("[data-running-switch]");
  if (!running) return;
  event.preventDefault();
  const on = running.getAttribute("aria-checked") !== "true";
  running.setAttribute("aria-checked", on ? "true" : "false");
  running.href = running.href.replace(/show=[01]/, `show=${on ? "0" : "1"}`);
  document.documentElement.toggleAttribute("data-running", on);
  document.cookie = `running=${on ? "1; max-age=31536000" : "; max-age=0"}; path=/; samesite=lax`;
});
