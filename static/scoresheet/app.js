// Small enhancements; every action also works without JavaScript.
(function () {
  "use strict";

  // The theme chosen on this phone (scoresheet/theme.py): the server writes it on <html>; a
  // page the service worker kept from before the choice learns it from the cookie.
  var theme = (document.cookie.match(/(?:^|; )theme=(light|dark)(?:;|$)/) || [])[1];
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;

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
    // A notice of the open form (#stale) read: out of the way.
    var dismiss = event.target.closest("[data-dismiss]");
    if (dismiss) {
      var notice = dismiss.closest(".stale");
      if (notice) notice.replaceChildren();
      return;
    }
      // The running totals (issue 22): shown or hidden at once, remembered on this phone in the
    // cookie the server reads (scoresheet/theme.py); without JavaScript the link does it.
    var running = event.target.closest("[data-running-switch]");
    if (running) {
      event.preventDefault();
      var on = running.getAttribute("aria-checked") !== "true";
      running.setAttribute("aria-checked", on ? "true" : "false");
      running.href = running.href.replace(/show=[01]/, "show=" + (on ? "0" : "1"));
      document.documentElement.toggleAttribute("data-running", on);
      document.cookie = "running=" + (on ? "1; max-age=31536000" : "; max-age=0") + "; path=/; samesite=lax";
      return;
    }
  // Where the sheet was scrolled when a hand form was asked for: Back (form.js, loaded with the
  // offline code) brings the sheet back there.
  document.addEventListener(
    "click",
    function (event) {
      var entry = document.getElementById("entry");
      if (!entry || entry.querySelector(".entry-panel form.hand-form")) return;
      if (event.target.closest('[hx-target="#entry"] a, a[hx-target="#entry"]')) {
        entry.dataset.scrolled = String(window.scrollY);
      }
    },
    true
  );

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
  // the rows and the actions, swapped in out of band (docs/using.md, "Live").
  var polling = false;
  function poll() {
    var marker = document.getElementById("live");
    if (!marker || polling || document.visibilityState !== "visible") return;
    polling = true;
    pollMoved = false;
    var shown = marker.dataset.revision;
    askedFor = openForm();
    var url = marker.dataset.live + "?revision=" + encodeURIComponent(shown) + askedFor;
    function done() {
      polling = false;
      var now = document.getElementById("live");
      if (now && now.dataset.revision !== shown) refreshChart();
      // Moved on by another phone (the poll's answer was newer than what the page showed), not
      // by this phone's own save answered while the poll was on its way: offline.js renumbers
      // an open new-hand form, and the last action's message goes.
      if (pollMoved) document.dispatchEvent(new CustomEvent("sheet:moved"));
    }
    htmx.ajax("GET", url, { target: "#live", swap: "none" }).then(done, done);
  }

  // Whatever order the answers came in (a save's, the poll's, offline.js's waiting rows), a
  // hand's row is shown once: the server's, the latest one swapped in.
  function oneRowEach() {
    var seen = {};
    var rows = document.querySelectorAll("#hands details.hand[id]");
    for (var i = rows.length - 1; i >= 0; i--) {
      var row = rows[i], kept = seen[row.id];
      if (!kept) seen[row.id] = row;
      else if (kept.classList.contains("pending") && !row.classList.contains("pending")) {
        kept.remove();
        seen[row.id] = row;
      } else row.remove();
    }
  }
  // A poll's answer that an answer to a save overtook shows an older sheet: it would take the
  // newer rows away (and the page would not ask again). It is dropped; the next poll asks.
  var pollMoved = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig || {};
    if (!config.path || config.path.indexOf("/live/") < 0) return;
    // A hand of this phone's queue on its way (offline/sheet.js): its own answer brings the
    // sheet, which this answer may or may not hold yet. The next poll asks again.
    if (document.documentElement.dataset.sending) {
      event.detail.shouldSwap = false;
      return;
    }
    var found = /data-revision="(\d+)"/.exec(event.detail.serverResponse || "");
    var marker = document.getElementById("live");
    if (!found || !marker) return;
    if (Number(found[1]) < Number(marker.dataset.revision)) event.detail.shouldSwap = false;
    else if (Number(found[1]) > Number(marker.dataset.revision)) pollMoved = true;
  });
  document.addEventListener("htmx:oobAfterSwap", oneRowEach);
  // A saved hand's answer brings its own row only, and the revision it made. When another
  // phone's hand came in between (its row not shown here, the revision already past it), the
  // next poll asks for the whole sheet.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var marker = event.target;
    if (!marker || marker.id !== "live") return;
    var rows = document.querySelectorAll("#hands > details.hand[id]:not(.pending)");
    var last = rows.length ? Number(rows[rows.length - 1].id.replace("hand-", "")) : 0;
    if (last > 1 && !document.getElementById("hand-" + (last - 1))) marker.dataset.revision = "0";
  });
  document.addEventListener("htmx:afterSettle", oneRowEach);

  // A form replaced while the poll was on its way (saved, refused, reloaded) missed nothing the
  // answer says: its notice is about the form that was asked about.
  var askedFor = "";
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target) return;
    if (target.id === "stale" && openForm() !== askedFor) event.detail.shouldSwap = false;
    // The rows a player opened stay open when the sheet follows another phone: the page does
    // not jump under their thumb (nor under the open form below the rows).
    var fragment = event.detail.fragment;
    if (!fragment || !fragment.querySelectorAll) return;
    // A row appended to the sheet (a saved hand's answer) that the page shows already (the live
    // poll brought it, or offline.js shows it waiting) replaces it: a row is never shown twice.
    // (The poll's answer replaces the whole of #hands: its rows are not appended.)
    if (target.id === "hands") {
      Array.prototype.forEach.call(fragment.querySelectorAll("details.hand[id]"), function (row) {
        var shown = document.getElementById(row.id);
        var appended = !row.parentElement || row.parentElement.id !== "hands";
        if (appended && shown && target.contains(shown)) {
          if (shown.open) row.open = true;
          shown.replaceWith(row);
          htmx.process(row);
        }
      });
    }
    var open = target.matches("details.hand[open]") ? [target] : target.querySelectorAll("details.hand[open]");
    Array.prototype.forEach.call(open, function (row) {
      var fresh = row.id && fragment.querySelector("#" + CSS.escape(row.id));
      if (fresh) fresh.open = true;
    });
  });

  // The hand form open under the sheet, named for the poll: a correction by its hand's key and
  // the version it shows, a new hand by its number. The answer then says, in the form's notice
  // (#stale), what changed on another phone meanwhile (views.stale_form).
  function openForm() {
    var panel = document.querySelector("#entry .entry-panel");
    var form = panel && panel.querySelector("form.hand-form");
    if (!form || !document.getElementById("stale")) return "";
    var key = form.elements.key, version = form.elements.version;
    if (version && version.value && key) {
      return "&hand=" + encodeURIComponent(key.value) + "&version=" + encodeURIComponent(version.value);
    }
    return panel.dataset.number ? "&number=" + encodeURIComponent(panel.dataset.number) : "";
  }
  // The browser tests set window.tarotIntervals (tests/e2e/conftest.py) instead of waiting.
  setInterval(poll, (window.tarotIntervals && window.tarotIntervals.poll) || 2000);
  document.addEventListener("visibilitychange", poll);

  // "Keep the screen on" (Screen Wake Lock API), where the browser has it: a phone lying on
  // the table stays lit. The choice is remembered on this phone; the browser lets the lock go
  // whenever the page is hidden, so it is taken again each time the page comes back.
  var WAKE = "tarot-keep-screen-on";
  var wakeLock = null;
  function wanted() {
    try {
      return localStorage.getItem(WAKE) === "on";
    } catch (error) {
      return false;
    }
  }
  function showWake() {
    var button = document.querySelector("[data-wake]");
    if (button) button.setAttribute("aria-pressed", String(wanted()));
  }
  function keepAwake() {
    if (!wanted() || (wakeLock && !wakeLock.released) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(
      function (sentinel) {
        wakeLock = sentinel;
        // Turned off meanwhile: let it go at once.
        if (!wanted()) sentinel.release();
      },
      function () {
        wakeLock = null; // Refused (a low battery): the button still says what was asked.
      }
    );
  }
  function letSleep() {
    if (wakeLock) wakeLock.release();
    wakeLock = null;
  }
  if ("wakeLock" in navigator) {
    document.addEventListener("click", function (event) {
      if (!event.target.closest("[data-wake]")) return;
      try {
        localStorage.setItem(WAKE, wanted() ? "off" : "on");
      } catch (error) {
        return;
      }
      showWake();
      if (wanted()) keepAwake();
      else letSleep();
    });
    document.addEventListener("visibilitychange", keepAwake);
  }

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
    var wake = document.querySelector("[data-wake]");
    if (wake && "wakeLock" in navigator) {
      wake.parentElement.hidden = false;
      showWake();
      keepAwake();
    }
    document.querySelectorAll(".dealer-choice span").forEach(function (label, seat) {
      label.dataset.default = label.textContent;
      var input = document.getElementById("id_player_" + seat);
      if (input && input.value.trim()) label.textContent = input.value.trim();
    });
  });
})();

// ---- Copy buttons for the links (issue 13; templates/_copy_button.html) ----
// A button shows only where this browser can copy: the Clipboard API (secure pages), or
// execCommand("copy") on a plain-http LAN page. "Copied" is announced by its status region.
(function () {
  "use strict";

  function canCopy() {
    return Boolean(
      (navigator.clipboard && navigator.clipboard.writeText) ||
        (document.queryCommandSupported && document.queryCommandSupported("copy"))
    );
  }

  function copyBySelection(input) {
    input.focus();
    input.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function copy(input) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(input.value).then(
        function () { return true; },
        function () { return copyBySelection(input); }
      );
    }
    return Promise.resolve(copyBySelection(input));
  }

  function show(root) {
    if (!canCopy()) return;
    root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var input = document.getElementById(button.dataset.copy);
    var status = button.parentElement.querySelector(".copy-status");
    if (!input || !status) return;
    copy(input).then(function (done) {
      // Emptied first, so that a second copy is announced again.
      status.textContent = "";
      setTimeout(function () {
        status.textContent = done ? status.dataset.copied : status.dataset.failed;
      }, 50);
    });
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { show(document); });
  } else {
    show(document);
  }
})();
