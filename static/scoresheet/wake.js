// "Keep the screen on" (Screen Wake Lock API), where the browser has it (app.js shows the button
// there): a phone lying on the table stays lit. The choice is remembered on this phone; the browser lets the lock go whenever
// the page is hidden, so it is taken again each time the page comes back.

const WAKE = "tarot-keep-screen-on";
let wakeLock = null;

function wanted() {
  try {
    return localStorage.getItem(WAKE) === "on";
  } catch (error) {
    return false;
  }
}

function show() {
  const button = document.querySelector("[data-wake]");
  if (button) button.setAttribute("aria-pressed", String(wanted()));
}

function keepAwake() {
  if (!wanted() || (wakeLock && !wakeLock.released) || document.visibilityState !== "visible") return;
  navigator.wakeLock.request("screen").then(
    (sentinel) => {
      wakeLock = sentinel;
      // Turned off meanwhile: let it go at once.
      if (!wanted()) sentinel.release();
    },
    () => {
      wakeLock = null; // Refused (a low battery): the button still says what was asked.
    }
  );
}

function letSleep() {
  if (wakeLock) wakeLock.release();
  wakeLock = null;
}

if ("wakeLock" in navigator) {
  document.addEventListener("click", (event) => {
    if (!event.target.closest("[data-wake]")) return;
    try {
      localStorage.setItem(WAKE, wanted() ? "off" : "on");
    } catch (error) {
      return;
    }
    show();
    if (wanted()) keepAwake();
    else letSleep();
  });
  document.addEventListener("visibilitychange", keepAwake);
  show();
  keepAwake();
}
