// Loaded by the summary and the printed sheet only (summary.html, print.html).
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
      .catch(function (error) {
        // The text is shared without the picture.
        console.info("share: the summary's picture was not fetched", error);
        picture = null;
      });
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
