// Live outside the table (games.navigation): the tab's title counts the games waiting for
// your move, and, if you turned them on, a browser notification says so while the tab is
// in the background.
(function () {
  "use strict";
  const KEY = "durak-notify";
  let last = null;

  function nav() { return document.getElementById("nav-mine"); }

  function counted() {
    const link = nav();
    const n = link ? Number(link.dataset.waiting || 0) : 0;
    if (!document.getElementById("table")) {  // a table keeps its own title
      document.title = document.title.replace(/^\(\d+\) /, "");
      if (n) document.title = "(" + n + ") " + document.title;
    }
    if (last !== null && n > last && document.hidden && localStorage.getItem(KEY) === "on" &&
        "Notification" in window && Notification.permission === "granted") {
      new Notification(link.dataset.notifyTitle, { body: link.dataset.notifyBody, tag: "durak-move" });
    }
    last = n;
  }

  function show(button) {
    const on = localStorage.getItem(KEY) === "on";
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? button.dataset.on : button.dataset.off;
  }

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "nav-mine") counted();
  });
  // Asked only when the player clicks the switch on their profile.
  document.addEventListener("click", async function (event) {
    const button = event.target.closest("[data-notify-toggle]");
    if (!button) return;
    if (localStorage.getItem(KEY) === "on") {
      localStorage.removeItem(KEY);
    } else if ("Notification" in window && await Notification.requestPermission() === "granted") {
      localStorage.setItem(KEY, "on");
    }
    show(button);
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-notify-toggle]").forEach(show);
  });
})();
