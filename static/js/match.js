// The result panel, the resign confirmation and the table chat
// (templates/games/_result.html, _resign.html, _chat.html). A file: the CSP allows no
// inline script.
(function () {
  "use strict";

  // The rematch has just opened: a player who accepted it follows to the new table, live.
  // (An old table opened later, after the rematch began, stays where it is.)
  var opened = false;
  document.addEventListener("DOMContentLoaded", function () {
    opened = Boolean(document.querySelector("#table a[data-follow]"));
  });
  var leaving = false;
  function follow() {
    var link = document.querySelector("#table a[data-follow]");
    if (!link || opened || leaving) return;
    leaving = true;  // the answer and the live table may both bring the link: go once
    window.location.assign(link.href);
  }
  document.addEventListener("htmx:oobAfterSwap", follow);
  document.addEventListener("htmx:afterSwap", follow);
  // The acceptance that opens the rematch answers with a redirect to it (HX-Redirect), and
  // the live table brings the link too: whichever comes first navigates, the other does
  // not (a second navigation would abort the first).
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || !xhr.getResponseHeader("HX-Redirect")) return;
    if (leaving) {
      event.preventDefault();  // already on the way to the new table
      return;
    }
    leaving = true;
  });

  // "Keep playing" and "Back to the table" close the box beside the table.
  document.addEventListener("click", function (event) {
    var closer = event.target.closest && event.target.closest("#match-dialog [data-close-dialog]");
    if (!closer) return;
    event.preventDefault();
    document.getElementById("match-dialog").innerHTML = "";
  });

  // A finished deal or the resign confirmation opened beside the table: bring it into
  // view and move the focus there (keyboard and screen reader users land on it).
  document.addEventListener("htmx:afterSwap", function (event) {
    var box = event.detail.target;
    if (!box || box.id !== "match-dialog" || !box.firstElementChild) return;
    var heading = box.querySelector("h2");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
    box.scrollIntoView({ block: "nearest" });
  });

  // A chat message went over the socket: empty the box for the next one.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest && event.target.closest("#chat-form");
    if (form) form.reset();
  });

  // New chat lines: keep the newest in view.
  document.addEventListener("htmx:oobAfterSwap", function () {
    var lines = document.getElementById("chat-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  });
})();
