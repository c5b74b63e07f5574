// The table chat on a phone (templates/games/table.html, static/css/table-mode.css): the
// header's "Chat" button opens and closes it, and counts the lines that arrived while it
// was closed. Lines shown when the page opened, and any while the chat is in sight (open,
// or beside the table on a wide screen), count as read.
(function () {
  "use strict";
  var read = 0;  // the newest chat line (data-chat-id) read

  function button() {
    return document.querySelector(".site-header .chat-toggle");
  }
  function ids() {
    return Array.prototype.map.call(
      document.querySelectorAll("#chat-lines [data-chat-id]"),
      function (line) { return Number(line.dataset.chatId) || 0; });
  }
  function inSight(toggle) {
    return toggle.getAttribute("aria-expanded") === "true" ||
      getComputedStyle(toggle).display === "none";
  }
  function update() {
    var toggle = button();
    if (!toggle) return;
    var all = ids();
    if (inSight(toggle)) read = Math.max.apply(null, [read].concat(all));
    var unread = all.filter(function (id) { return id > read; }).length;
    var badge = toggle.querySelector(".unread"), text = String(unread);
    // Only real changes: each one is a mutation the observer below hears of.
    if (badge.textContent !== text) badge.textContent = text;
    if (!unread) toggle.removeAttribute("aria-label");
    else toggle.setAttribute("aria-label", toggle.dataset.unread.replace("{}", text));
    if (badge.hidden !== (unread === 0)) badge.hidden = unread === 0;
  }
  function start() {
    var toggle = button();
    // No chat to read here (a private table seen by someone else): no button.
    if (!toggle || !document.querySelector("#chat.chat")) return;
    read = Math.max.apply(null, [0].concat(ids()));
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      update();
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") {
        toggle.setAttribute("aria-expanded", "false");
        toggle.focus();
      }
    });
    // New lines come over the socket, by the poll, or with the whole chat (a mute).
    new MutationObserver(update).observe(document.body, { childList: true, subtree: true });
    update();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
