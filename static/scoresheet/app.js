// What every page does once it is parsed, then which of its behaviours load, and when.
// Each behaviour is a module of its own, found by a data attribute of the page; none is needed
// for the first paint, so they load once the page is usable (idle time after it loaded), or at
// once for the first htmx request (a hand form asked for), which waits for them. Without
// JavaScript nothing here runs, and every link and form works as before.

// The theme chosen on this phone (scoresheet/theme.py): the server writes it on <html>; a page
// the service worker kept from before the choice learns it from the cookie.
const theme = (document.cookie.match(/(?:^|; )theme=(light|dark)(?:;|$)/) || [])[1];
if (theme) document.documentElement.dataset.theme = theme;
else delete document.documentElement.dataset.theme;

// The controls only some browsers can use are hidden in the markup; where this one can, they
// show now, as the page is first shown, so that nothing moves later under a thumb. Their
// behaviours (wake.js, copy.js, share.js) load with the others.
const canCopy = Boolean(
  (navigator.clipboard && navigator.clipboard.writeText) ||
    (document.queryCommandSupported && document.queryCommandSupported("copy"))
);
const wake = document.querySelector("[data-wake]");
if (wake && "wakeLock" in navigator) wake.parentElement.hidden = false;
for (const button of document.querySelectorAll("button[data-copy]")) button.hidden = !canCopy;
for (const button of document.querySelectorAll("button[data-share]")) {
  button.hidden = !(navigator.share || canCopy);
}
for (const button of document.querySelectorAll("button[data-print]")) {
  button.hidden = typeof window.print !== "function";
}

// A page's behaviours, by what it has. The imports are written out: the static files' storage
// rewrites each to its hashed name.
const BEHAVIOURS = [
  ["[data-revision]", () => import("./live.js")],
  ["[data-revision]", () => import("./hands.js")],
  ["[data-sheet]", () => import("./totals.js")],
  ["[data-refresh]", () => import("./chart.js")],
  ["[data-entry]", () => import("./entry.js")],
  ["[data-entry]", () => import("./back.js")],
  ["[data-entry], [data-step]", () => import("./steps.js")],
  ["[data-running-switch]", () => import("./running.js")],
  ["[data-theme-form]", () => import("./theme.js")],
  ["[data-wake]", () => import("./wake.js")],
  ["[data-copy]", () => import("./copy.js")],
  ["[data-share], [data-print]", () => import("./share.js")],
  ["[data-dealers]", () => import("./dealers.js")],
  ["[data-everyone]", () => import("./everyone.js")],
  ["form[data-upload]", () => import("./upload.js")],
];

let loading = null;
let loaded = false;

function load() {
  if (!loading) {
    const wanted = BEHAVIOURS.filter(([selector]) => document.querySelector(selector));
    loading = Promise.all(wanted.map(([, module]) => module())).then(
      () => {
        loaded = true;
      },
      (error) => {
        loaded = true;
        console.error("app.js: a behaviour of the page did not load", error);
      }
    );
  }
  return loading;
}

// The first htmx request waits for the behaviours that handle its answer, and so does a tap on a
// control whose behaviour is still on its way (it happens once they are there).
document.addEventListener("htmx:confirm", (event) => {
  if (loaded) return;
  event.preventDefault();
  load().then(() => event.detail.issueRequest(true));
});
const CONTROLS =
  "[data-wake], [data-copy], [data-share], [data-print], [data-running-switch], [data-step], [data-theme-form] [type=submit], [data-everyone]";
document.addEventListener(
  "click",
  (event) => {
    const control = !loaded && event.target.closest(CONTROLS);
    if (!control) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    load().then(() => control.click());
  },
  true
);
const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1));
if (document.readyState === "complete") idle(load);
else window.addEventListener("load", () => idle(load), { once: true });
