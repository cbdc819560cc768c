// The club night's page and its screen (issue 24): follow the night live, and count the
// round's minutes down.
(function () {
  "use strict";

  // Every 2 s while the page is visible, ask whether the night moved on since the version it
  // shows: an empty 204 when not, else the live region, swapped in whole.
  var polling = false;
  function poll() {
    var region = document.getElementById("night-live");
    if (!region || polling || document.visibilityState !== "visible") return;
    polling = true;
    var url = region.dataset.live;
    url += (url.indexOf("?") < 0 ? "?" : "&") + "version=" + encodeURIComponent(region.dataset.version);
    function done() {
      polling = false;
    }
    htmx.ajax("GET", url, { target: "#night-live", swap: "outerHTML" }).then(done, done);
  }
  // The browser tests set window.tarotIntervals (tests/e2e/conftest.py) instead of waiting.
  setInterval(poll, (window.tarotIntervals && window.tarotIntervals.poll) || 2000);
  document.addEventListener("visibilitychange", poll);

  // The timer: the seconds left when the region was drawn, counted down from then.
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-left]").forEach(function (clock) {
      var left = parseInt(clock.dataset.left, 10);
      if (!clock.dataset.since) clock.dataset.since = String(now);
      var seconds = Math.max(0, left - Math.floor((now - parseInt(clock.dataset.since, 10)) / 1000));
      clock.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
      clock.classList.toggle("over", seconds === 0);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();
