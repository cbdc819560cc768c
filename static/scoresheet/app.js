// Small enhancements; every action also works without JavaScript.
(function () {
  "use strict";

  // The − and + buttons beside the points: half steps at 3 and 5 players.
  document.addEventListener("click", function (event) {
    var step = event.target.closest("button[data-step]");
    if (step) {
      var input = step.parentElement.querySelector("input");
      var value = parseFloat((input.value || "0").replace(",", ".")) || 0;
      var next = Math.min(91, Math.max(0, value + parseFloat(step.dataset.step)));
      // Keep the separator the player typed, else the page language's (40,5 in French).
      var comma = /,/.test(input.value) ||
        (!/\./.test(input.value) && (0.5).toLocaleString(document.documentElement.lang) === "0,5");
      input.value = comma ? String(next).replace(".", ",") : String(next);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    // Cancel inside the sheet just closes the panel.
    var cancel = event.target.closest("[data-cancel]");
    var entry = cancel && cancel.closest("#entry");
    if (entry) {
      event.preventDefault();
      entry.replaceChildren();
    }
  });

  // The chart is redrawn by the server; after a change it is fetched again, but only while
  // its fold is open (or when it next opens), so that saving a hand stays small and fast.
  var chartStale = false;
  function refreshChart() {
    var fold = document.querySelector("details.chart[data-refresh]");
    if (!fold) return;
    if (!fold.open) {
      chartStale = true;
      return;
    }
    chartStale = false;
    htmx.ajax("GET", fold.dataset.refresh, { target: "#chart", swap: "outerHTML" });
  }
  document.addEventListener(
    "toggle",
    function (event) {
      if (event.target.matches("details.chart") && event.target.open && chartStale) refreshChart();
    },
    true
  );

  // The sticky totals cover the top of the screen, more or less of it with the seats and the
  // size of the totals: whatever is brought into sight stops below them (app.css, --covered).
  function measureTotals() {
    var bar = document.getElementById("totals");
    var covered = bar ? bar.offsetHeight : 0;
    document.documentElement.style.setProperty("--covered", covered + "px");
  }
  window.addEventListener("resize", measureTotals);
  document.addEventListener("htmx:afterSwap", measureTotals);

  // A saved or changed hand: show the sheet's new state.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "entry") {
      var panel = event.detail.target.querySelector(".entry-panel");
      measureTotals();
      if (panel) {
        // A refused save: its first problem comes into sight (clear of the sticky totals) and
        // takes the focus; otherwise keyboard and screen-reader users land in the new form.
        var problem = panel.querySelector(".invalid") || panel.querySelector(".form-errors");
        if (problem) {
          var control = problem.querySelector("input, select, textarea") || problem;
          if (control === problem) problem.setAttribute("tabindex", "-1");
          control.focus({ preventScroll: true });
          problem.scrollIntoView({ block: "center" });
        } else {
          // Its heading and first choices in sight, below the totals, and the focus on it.
          panel.scrollIntoView({ block: "start" });
          var title = panel.querySelector("h2[tabindex]");
          if (title) title.focus({ preventScroll: true });
        }
      } else {
        refreshChart();
        var rows = document.querySelectorAll("#hands .hand");
        if (rows.length) rows[rows.length - 1].scrollIntoView({ block: "nearest" });
      }
    }
  });

  // Live: while the page is visible, ask every 2 s whether the sheet moved on since the
  // revision it shows. Unchanged, the answer is an empty 204; changed, it carries the totals,
  // the rows and the actions, swapped in out of band (README, "Live").
  var polling = false;
  function poll() {
    var marker = document.getElementById("live");
    if (!marker || polling || document.visibilityState !== "visible") return;
    polling = true;
    var shown = marker.dataset.revision;
    function done() {
      polling = false;
      var now = document.getElementById("live");
      if (now && now.dataset.revision !== shown) refreshChart();
    }
    htmx
      .ajax("GET", marker.dataset.live + "?revision=" + encodeURIComponent(shown), {
        target: "#live",
        swap: "none",
      })
      .then(done, done);
  }
  setInterval(poll, 2000);
  document.addEventListener("visibilitychange", poll);

  // Name the dealers after the players typed on the new-session form.
  document.addEventListener("input", function (event) {
    var match = event.target.id && event.target.id.match(/^id_player_(\d)$/);
    if (!match) return;
    var label = document.querySelector(".dealer-" + (Number(match[1]) + 1) + " span");
    if (label) label.textContent = event.target.value.trim() || label.dataset.default;
  });
  // Loaded async: the page may still be parsing.
  function ready(run) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
    else run();
  }
  ready(function () {
    measureTotals();
    document.querySelectorAll(".dealer-choice span").forEach(function (label, seat) {
      label.dataset.default = label.textContent;
      var input = document.getElementById("id_player_" + seat);
      if (input && input.value.trim()) label.textContent = input.value.trim();
    });
  });
})();
