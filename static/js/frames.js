// A push after a move carries only the parts of the table that changed
// (games/present/fragments.py), made on top of the version just before. Its first element,
// #table-frame, says on top of which version (data-from) and which it brings
// (data-version): the frame is swapped in only on top of the version the page shows;
// otherwise it is dropped, and when it is newer the page asks its socket for the whole
// table. A frame swapped in moves the table's version, its "your turn" mark and the
// table's 20 s poll on with it.
(function () {
  "use strict";
  var FRAME = /^<div id="table-frame" hidden data-from="(\d+)" data-version="(\d+)"( data-my-turn)?/;

  function table() {
    return document.getElementById("table");
  }

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var found = FRAME.exec(event.detail.message || "");
    if (!found) return;  // a whole table, a chat line: not this file's
    var shown = table(), from = Number(found[1]), version = Number(found[2]);
    var at = shown ? Number(shown.dataset.version) : -1;
    if (!shown || from !== at) {
      event.preventDefault();
      if (shown && version > at && event.detail.socketWrapper) {  // a version was missed
        event.detail.socketWrapper.send(JSON.stringify({ type: "sync", version: at }));
      }
      return;
    }
    shown.dataset.version = String(version);
    shown.toggleAttribute("data-my-turn", Boolean(found[3]));
  });

  // The poll asks for what is newer than the table shown, not than the one first loaded.
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt, shown = table();
    if (elt && elt === shown && event.detail.verb === "get" && event.detail.path) {
      event.detail.path = event.detail.path.replace(/([?&]since=)\d+/, "$1" + shown.dataset.version);
    }
  });
})();
