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
    var found = /data-revision="(\d+)"/.exec(event.detail.serverResponse || "");
    var marker = document.getElementById("live");
    if (!found || !marker) return;
    if (Number(found[1]) < Number(marker.dataset.revision)) event.detail.shouldSwap = false;
    else if (Number(found[1]) > Number(marker.dataset.revision)) pollMoved = true;
  });
  document.addEventListener("htmx:oobAfterSwap", oneRowEach);
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

// ---- Share the results, and Print (issue 23; summary.html, print.html) ----
// "Share the results" hands the text (the standings and the read-only link) to the phone's
// share sheet (Web Share API), with the summary's picture where the browser can share files;
// elsewhere it copies the text. The button shows only where one of the two works.
(function () {
  "use strict";

  var picture = null; // the summary's PNG as a File, once fetched, where files can be shared

  function canCopy() {
    return Boolean(
      (navigator.clipboard && navigator.clipboard.writeText) ||
        (document.queryCommandSupported && document.queryCommandSupported("copy"))
    );
  }

  function copy(source) {
    function bySelection() {
      source.focus();
      source.select();
      try {
        return document.execCommand("copy");
      } catch (error) {
        return false;
      }
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(source.value).then(
        function () { return true; },
        function () { return bySelection(); }
      );
    }
    return Promise.resolve(bySelection());
  }

  function say(status, key) {
    if (!status) return;
    // Emptied first, so that saying it again is announced again.
    status.textContent = "";
    setTimeout(function () {
      status.textContent = status.dataset[key] || "";
    }, 50);
  }

  // Fetched ahead: the share sheet must open within the tap's user activation.
  function fetchPicture(button) {
    if (!navigator.canShare || !button.dataset.shareImage || typeof File === "undefined") return;
    fetch(button.dataset.shareImage, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.blob() : null; })
      .then(function (blob) {
        if (!blob) return;
        var file = new File([blob], button.dataset.shareFile || "summary.png", { type: "image/png" });
        if (navigator.canShare({ files: [file] })) picture = file;
      })
      .catch(function () { picture = null; });
  }

  function copyInstead(source, status) {
    copy(source).then(function (done) { say(status, done ? "copied" : "failed"); });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share]");
    if (button) {
      var source = document.getElementById(button.dataset.share);
      var status = button.parentElement.querySelector(".copy-status");
      if (!source) return;
      if (!navigator.share) {
        copyInstead(source, status);
        return;
      }
      var data = { title: button.dataset.shareTitle, text: source.value };
      if (picture) data.files = [picture];
      navigator.share(data).then(
        function () { say(status, "shared"); },
        function (error) {
          // Closed by the person: nothing to do. Refused otherwise: copy the text instead.
          if (error && error.name === "AbortError") return;
          copyInstead(source, status);
        }
      );
      return;
    }
    if (event.target.closest("button[data-print]")) window.print();
  });

  function ready() {
    var button = document.querySelector("button[data-share]");
    if (button && (navigator.share || canCopy())) {
      button.hidden = false;
      if (navigator.share) fetchPicture(button);
    }
    var print = document.querySelector("button[data-print]");
    if (print && typeof window.print === "function") print.hidden = false;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();

// Back closes the hand form (issue 22). Opening the form on the sheet (new hand or correction)
// adds a history entry; Android's Back (or the browser's) closes the form and leaves the sheet
// where it was. What was typed in a new hand is kept on this phone as a draft, offered again by
// the next "New hand" until it is saved or discarded.
(function () {
  "use strict";

  var pushed = false; // this page added the open form's history entry
  var backing = false; // this page went back over a closed form's entry, not yet arrived
  var before = null; // where the sheet was scrolled when the form was asked for
  var DRAFT = "tarot-draft:" + location.pathname;
  // What a player fills in; the form's own bookkeeping (key, version, CSRF) is not a draft.
  var FILLED = "input:not([type=hidden]), select, textarea";

  function panel() {
    return document.querySelector("#entry .entry-panel form.hand-form");
  }
  function isNewHand(form) {
    return !(form.elements.version && form.elements.version.value);
  }

  function draftOf(form) {
    var fields = {};
    var typed = false;
    Array.prototype.forEach.call(form.querySelectorAll(FILLED), function (field) {
      if (!field.name) return;
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked !== field.defaultChecked) typed = true;
        if (field.checked) (fields[field.name] = fields[field.name] || []).push(field.value);
      } else {
        if (field.value !== field.defaultValue) typed = true;
        fields[field.name] = [field.value];
      }
    });
    return typed ? fields : null;
  }
  function keep(form) {
    if (!isNewHand(form)) return;
    var fields = draftOf(form);
    try {
      if (fields) localStorage.setItem(DRAFT, JSON.stringify(fields));
    } catch (error) {
      console.warn("The draft could not be kept on this phone:", error);
    }
  }
  function kept() {
    try {
      return JSON.parse(localStorage.getItem(DRAFT) || "null");
    } catch (error) {
      console.warn("The draft kept on this phone could not be read:", error);
      return null;
    }
  }
  function forget() {
    try {
      localStorage.removeItem(DRAFT);
    } catch (error) {
      console.warn("The draft could not be removed:", error);
    }
  }

  function restore(form, fields) {
    Array.prototype.forEach.call(form.querySelectorAll(FILLED), function (field) {
      if (!field.name) return;
      var values = fields[field.name] || [];
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = values.indexOf(field.value) !== -1;
      } else if (values.length) {
        field.value = values[0];
      }
    });
    var note = form.querySelector("[data-draft-note]");
    if (note) note.hidden = false;
    // The preview (and the form's own choices) follow what came back. htmx sets up what it
    // inserts only when it settles: set the form up now (htmx.process does it once).
    if (window.htmx) htmx.process(form.closest(".entry-panel") || form);
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // What the last action said ("Hand 6 saved.") is about that action: gone when the sheet moves
  // on from another phone, and when a form opens (it would sit above a form it is not about).
  function clearFlash() {
    var flash = document.getElementById("flash");
    if (flash && flash.firstChild) flash.replaceChildren();
  }
  document.addEventListener("sheet:moved", clearFlash);

  // A form opens: its history entry, and the draft of a new hand.
  function opened(form) {
    if (!pushed && !backing) {
      clearFlash();
      history.pushState({ tarotForm: true }, "");
      pushed = true;
    }
    if (form.dataset.draftChecked) return;
    form.dataset.draftChecked = "1";
    var fields = isNewHand(form) && !form.querySelector(".form-errors, .invalid") && kept();
    if (fields) restore(form, fields);
  }
  // The form went (saved, cancelled, replaced by the sheet): its history entry goes too.
  function closed() {
    if (!pushed) return;
    pushed = false;
    if (history.state && history.state.tarotForm) {
      backing = true;
      history.back();
    }
  }

  var entry = document.getElementById("entry");
  if (!entry || !window.history || !history.pushState) return;
  new MutationObserver(function () {
    var form = panel();
    if (form) opened(form);
    else closed();
  }).observe(entry, { childList: true, subtree: true });
  if (panel()) opened(panel());

  document.addEventListener(
    "click",
    function (event) {
      if (event.target.closest('[hx-target="#entry"] a, a[hx-target="#entry"]') && !panel()) {
        before = window.scrollY;
      }
      var discard = event.target.closest("[data-discard-draft]");
      if (discard) {
        var form = discard.closest("form");
        forget();
        form.reset();
        // The note stays where it is, saying what happened: nothing below it moves.
        var note = discard.closest("[data-draft-note]");
        note.querySelector("[data-draft-text]").textContent = note.dataset.discarded;
        discard.hidden = true;
        form.dispatchEvent(new Event("change", { bubbles: true }));
      }
    },
    true
  );
  // Typed so far, kept as it goes (a phone may lock, a tab may be closed).
  document.addEventListener("change", function (event) {
    var form = panel();
    if (form && form.contains(event.target)) keep(form);
  });
  // Saved (or queued) or passed: the draft is done with. Refused, the form comes back with it.
  window.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var by = event.submitter && event.submitter.name;
      if (form.matches("#entry form.hand-form") && isNewHand(form) && (by === "save" || by === "passed")) {
        forget();
      }
    },
    true
  );
  window.addEventListener("popstate", function () {
    var form = panel();
    if (backing) {
      // Our own step back over a closed form's entry. A form opened meanwhile (Save, then at
      // once New hand) gets its entry now, so that Back does not close it by mistake.
      backing = false;
      if (form && !pushed) {
        clearFlash();
        history.pushState({ tarotForm: true }, "");
        pushed = true;
      }
      return;
    }
    if (!form || !pushed) return;
    pushed = false;
    keep(form);
    entry.replaceChildren();
    if (before !== null) window.scrollTo(0, before);
    before = null;
  });
})();
