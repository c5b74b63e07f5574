// "Copy" beside a link (data-copy: the input's id): the Clipboard API, then "Copied"
// (data-copied) in the status beside it. Delegated: the table is swapped in live.
(function () {
  "use strict";

  function say(button, text) {
    var status = button.parentNode.querySelector(".copy-status");
    if (status) status.textContent = text;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) return;
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) return;
    var failed = function () {
      input.focus();
      input.select();
      say(button, button.getAttribute("data-failed"));
    };
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      failed();
      return;
    }
    navigator.clipboard.writeText(input.value).then(function () {
      say(button, button.getAttribute("data-copied"));
      button.setAttribute("data-done", "");
      window.setTimeout(function () { button.removeAttribute("data-done"); }, 4000);
    }, failed);
  });
})();
