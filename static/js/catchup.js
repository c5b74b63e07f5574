// The table page catches up on what its socket may have missed (the socket was down, or
// the site lost Redis for a while): each time the table's socket opens it asks for what is
// newer than the table and the last chat line shown, and the table's 20 s poll asks for
// the chat lines too. A chat line that comes twice is shown once, in order.
(function () {
  "use strict";
  var LINE_FRAME = '<ol hx-swap-oob="beforeend:#chat-lines">';

  function shownVersion() {
    var table = document.getElementById("table");
    return table ? Number(table.dataset.version) || 0 : 0;
  }
  function chatLines() {
    return document.getElementById("chat-lines");
  }
  function lastLine() {
    var last = 0, list = chatLines();
    if (list) {
      Array.prototype.forEach.call(list.querySelectorAll("[data-chat-id]"), function (line) {
        last = Math.max(last, Number(line.dataset.chatId) || 0);
      });
    }
    return last;
  }
  function tableSocket(event) {
    return (event.target.getAttribute("ws-connect") || "").indexOf("/ws/games/") === 0;
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    if (!tableSocket(event)) return;
    var sync = { type: "sync", version: shownVersion() };
    if (chatLines()) sync.chat_after = lastLine();
    event.detail.socketWrapper.send(JSON.stringify(sync));
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "table" && event.detail.verb === "get" && chatLines()) {
      event.detail.parameters.chat_after = lastLine();
    }
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var html = event.detail.message || "", id = /data-chat-id="(\d+)"/.exec(html);
    var list = chatLines();
    if (html.indexOf(LINE_FRAME) === 0 && id && list &&
        list.querySelector('[data-chat-id="' + id[1] + '"]')) {
      event.preventDefault();  // shown already
    }
  });
  function tidy(list) {
    var seen = {}, kept = [];
    Array.prototype.slice.call(list.children).forEach(function (line) {
      var id = line.dataset.chatId;
      if (id && seen[id]) { line.remove(); return; }
      seen[id] = true;
      kept.push(line);
    });
    var sorted = kept.slice().sort(function (a, b) {
      return Number(a.dataset.chatId) - Number(b.dataset.chatId);
    });
    if (sorted.some(function (line, i) { return line !== kept[i]; })) {
      sorted.forEach(function (line) { list.appendChild(line); });
    }
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "chat-lines") tidy(event.detail.target);
  });
})();
