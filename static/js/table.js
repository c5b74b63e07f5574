// The table page (templates/games/table.html). Loaded as a file: the site's
// Content-Security-Policy allows no inline script.
(function () {
  "use strict";

  // ------------------------------------------------------------- stale tables
  // A table older than the one shown (an answer overtaken by a live update), or the same
  // table again with no news (the socket sends the whole table on every (re)connect), would
  // only undo the cards the player is choosing or the message shown: keep what is shown.
  function shown() {
    var table = document.getElementById("table");
    return table ? Number(table.dataset.version) : -1;
  }
  function version(html) {
    var m = /id="table"[^>]*data-version="(\d+)"/.exec(html || "");
    return m ? Number(m[1]) : null;
  }
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var html = event.detail.message, v = version(html);
    if (v !== null && (v < shown() || (v === shown() && html.indexOf('role="alert"') < 0))) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target, v = version(event.detail.serverResponse);
    if (target && target.id === "table" && v !== null && v < shown()) {
      event.detail.shouldSwap = false;
    }
  });

  // ------------------------------------------------------------- choosing cards
  // Offer only the cards that can go together in this move; the server says which
  // (data-max, data-same-rank, data-ranks on the form) and still judges the move.
  function checked(list) {
    return Array.prototype.filter.call(list, function (input) { return input.checked; });
  }
  function mark(input, off, cls) {
    input.disabled = off;
    var label = input.closest("label");
    if (label) label.classList.toggle(cls, off);
  }

  function update(form) {
    var boxes = form.querySelectorAll("fieldset.hand input[type=checkbox]");
    var radios = form.querySelectorAll("fieldset.beat input[data-beat-with]");
    var chosen = checked(boxes), beating = checked(radios).length > 0;
    var max = Number(form.dataset.max || 0);
    var sameRank = form.hasAttribute("data-same-rank");
    var onTable = (form.dataset.ranks || "").split(" ").filter(Boolean);
    var ranks = onTable.concat(chosen.map(function (b) { return b.dataset.rank; }));
    Array.prototype.forEach.call(boxes, function (box) {
      var rank = box.dataset.rank;
      var fits = box.checked || (
        chosen.length < max &&  // R9: the bout's limit
        !(sameRank && chosen.length && chosen[0].dataset.rank !== rank) &&  // R7
        !(onTable.length && ranks.indexOf(rank) < 0) &&  // R8
        !(beating && box.value.indexOf("transfer:") === 0));  // R32: before any defence
      mark(box, !fits, "unavailable");
    });

    // Each hand card beats one attack card (R12): one chosen for an attack card is
    // taken for the others (a click there moves it).
    var transferring = chosen.some(function (b) { return b.value.indexOf("transfer:") === 0; });
    var owner = {};
    checked(radios).forEach(function (r) { owner[r.dataset.beatWith] = r; });
    Array.prototype.forEach.call(radios, function (radio) {
      var other = owner[radio.dataset.beatWith];
      var taken = Boolean(other && other !== radio);
      mark(radio, taken || transferring, "taken");
      var note = radio.parentNode.querySelector(".taken-note");
      if (note) note.hidden = !taken;
    });
  }

  function moveForm() {
    return document.getElementById("move");
  }
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.id === "move") update(form);
  });
  document.addEventListener("click", function (event) {
    var label = event.target.closest && event.target.closest("#move fieldset.beat label");
    var radio = label && label.querySelector("input[data-beat-with]");
    var form = moveForm();
    if (!radio || !radio.disabled || !label.classList.contains("taken") || !form) return;
    checked(form.querySelectorAll("fieldset.beat input[data-beat-with]")).forEach(function (r) {
      if (r.dataset.beatWith !== radio.dataset.beatWith) return;
      var none = r.closest("fieldset").querySelector("input[type=radio]:not([data-beat-with])");
      r.checked = false;
      if (none) none.checked = true;  // "not yet"
    });
    radio.disabled = false;
    radio.checked = true;
    update(form);
  });
  function refresh() {
    var form = moveForm();
    if (form) update(form);
  }
  document.addEventListener("htmx:load", refresh);
  document.addEventListener("DOMContentLoaded", refresh);

  // ------------------------------------------------------------- one click plays
  // A hand card that can do only one thing plays at once: a card that can only go alone
  // (data-max="1": a lead, a last throw-in, a transfer) and, for the defender, a card that
  // beats just one attack card. A card that beats several makes the table ask which.
  // While other cards are chosen, a click only adds the card to the move.
  function chosen(form) {
    return checked(form.querySelectorAll("input[name=action], fieldset.beat input[data-beat-with]"));
  }
  function beatWith(form, radio, play) {
    checked(form.querySelectorAll("fieldset.beat input[data-beat-with]")).forEach(function (r) {
      if (r === radio || r.dataset.beatWith !== radio.dataset.beatWith) return;
      var none = r.closest("fieldset").querySelector("input[type=radio]:not([data-beat-with])");
      r.checked = false;
      if (none) none.checked = true;
    });
    radio.disabled = false;
    radio.checked = true;
    update(form);
    closeAsk(form);
    if (play) form.requestSubmit();
  }
  function beatRadios(form, card) {
    return Array.prototype.filter.call(
      form.querySelectorAll("fieldset.beat input[data-beat-with]"),
      function (r) { return r.dataset.beatWith === card; });
  }
  function closeAsk(form) {
    var ask = form.querySelector(".ask");
    if (ask) ask.remove();
  }
  // `transfer`: the hand card's transfer checkbox, when the card may also transfer (R32).
  function ask(form, button, radios, play, transfer) {
    closeAsk(form);
    var box = document.createElement("div");
    box.className = "ask";
    box.setAttribute("role", "group");
    var question = document.createElement("p");
    question.textContent = transfer ? form.dataset.askTransfer : form.dataset.ask;
    question.id = "ask-question";
    box.setAttribute("aria-labelledby", question.id);
    box.appendChild(question);
    var name = button.querySelector(".card").getAttribute("aria-label");
    radios.forEach(function (radio) {
      var attack = radio.closest(".pair").querySelector(".card.attack");
      var legend = radio.closest("fieldset").querySelector("legend").textContent;
      var choice = document.createElement("button");
      choice.type = "button";
      choice.className = "choice";
      choice.setAttribute("aria-label", legend.trim() + " " + name);
      var face = attack.cloneNode(true);
      face.removeAttribute("data-card");
      face.removeAttribute("role");
      face.removeAttribute("aria-label");
      face.classList.add("small");
      face.classList.remove("last");
      choice.appendChild(face);
      var words = document.createElement("span");  // "Beat 7♠": a choice in words too
      words.className = "choice-words";
      words.textContent = (form.dataset.beatChoice || "").replace("{}", attack.querySelector(".corner").textContent);
      choice.appendChild(words);
      choice.addEventListener("click", function () { beatWith(form, radio, play); });
      box.appendChild(choice);
    });
    if (transfer) {
      var pass = document.createElement("button");
      pass.type = "button";
      pass.className = "transfer";
      pass.textContent = form.dataset.transfer;
      pass.addEventListener("click", function () {
        transfer.checked = true;
        update(form);
        closeAsk(form);
        form.requestSubmit();
      });
      box.appendChild(pass);
    }
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "secondary";
    cancel.textContent = form.dataset.cancel;
    cancel.addEventListener("click", function () { closeAsk(form); button.focus(); });
    box.appendChild(cancel);
    var hand = button.closest("fieldset"), legend = hand.querySelector("legend");
    hand.insertBefore(box, legend ? legend.nextSibling : hand.firstChild);  // above the cards, not on them
    box.querySelector("button").focus();
  }
  document.addEventListener("click", function (event) {
    var form = moveForm(), target = event.target;
    if (!form || !target.closest || !form.contains(target)) return;
    // A move on its way: a second tap (a double tap, or the click a label passes on to
    // its box) must neither send it again nor undo the card chosen.
    if (form.hasAttribute("data-sending") && target.closest("fieldset.hand, fieldset.beat, .ask")) {
      event.preventDefault();
      return;
    }
    var label = target.closest("fieldset.hand label.pick");
    if (label) {
      var box = label.querySelector("input[type=checkbox]");
      // Space (or Enter, below) on the box itself: the browser has ticked it already.
      var direct = target === box;
      if (direct && box && !box.checked) return;  // un-ticked: only taken off the move
      var others = chosen(form).filter(function (b) { return b !== box; });
      if (!box || box.disabled || (box.checked && !direct) || others.length || form.dataset.max !== "1") return;
      // R32: a transfer is a whole move; a card that may also beat asks which it does.
      var transfer = box.value.indexOf("transfer:") === 0;
      if (form.querySelector("fieldset.beat") && !transfer) return;
      event.preventDefault();  // on the box itself this un-ticks it again
      var beats = transfer ? beatRadios(form, box.value.split(":")[1]) : [];
      if (beats.length) {
        ask(form, label, beats, true, box);
        return;
      }
      box.checked = true;
      form.requestSubmit();
      return;
    }
    var button = target.closest("fieldset.hand button.beat-with");
    if (!button) return;
    var radios = beatRadios(form, button.dataset.beatWith);
    var play = chosen(form).length === 0;
    if (radios.length === 1) beatWith(form, radios[0], play);
    else if (radios.length > 1) ask(form, button, radios, play);
  });
  document.addEventListener("keydown", function (event) {
    var form = moveForm();
    if (event.key === "Escape" && form && form.querySelector(".ask")) closeAsk(form);
    // Enter on a hand card does what a click does, not send the form as it stands.
    var box = event.target;
    if (event.key === "Enter" && form && box.matches && box.matches("fieldset.hand input[type=checkbox]")) {
      event.preventDefault();
      box.click();
    }
  });

  // ------------------------------------------------------------- focus kept
  // A live update replaces the table, and focus in it would fall back to the top of the
  // page: put it back on the same control when it is still there, else on the first card
  // to play (or the first button of the move). Focus elsewhere (the chat) is left alone.
  var focusKey = null, focusInTable = false;
  function keyOf(el) {
    var q = function (v) { return '"' + CSS.escape(v) + '"'; };
    if (el.matches("input[name][value]")) return "input[name=" + q(el.name) + "][value=" + q(el.value) + "]";
    if (el.matches("button[data-beat-with]")) return "button[data-beat-with=" + q(el.dataset.beatWith) + "]";
    if (el.matches("button[name][value]")) return "button[name=" + q(el.name) + "][value=" + q(el.value) + "]";
    return null;
  }
  document.addEventListener("focusin", function (event) {
    var table = document.getElementById("table");
    focusInTable = Boolean(table && table.contains(event.target));
    focusKey = focusInTable ? keyOf(event.target) : null;
  });
  function restoreFocus() {
    var table = document.getElementById("table"), active = document.activeElement;
    if (!focusInTable || !table || (active && active !== document.body && active.isConnected)) return;
    var target = (focusKey && table.querySelector(focusKey)) ||
      table.querySelector("#move fieldset.hand input:not(:disabled), #move fieldset.hand button.beat-with") ||
      table.querySelector("#move button:not([hidden]):not(:disabled)");
    if (target) target.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:load", function () { setTimeout(restoreFocus, 0); });

  // ------------------------------------------------------------- your turn, the last move
  // The tab's title and icon say when it is your move (the sounds: static/js/sound.js); the
  // live region #announcer (outside the swapped table) tells screen readers each new move.
  var baseTitle = document.title, icon = document.querySelector("link[rel=icon]");
  var baseIcon = icon ? icon.getAttribute("href") : "";
  var announced = null;

  function showTurn() {
    var table = document.getElementById("table");
    if (!table) return;
    var mine = table.hasAttribute("data-my-turn");
    document.title = mine ? "(1) " + table.dataset.turnTitle : baseTitle;
    if (icon) icon.setAttribute("href", mine ? baseIcon.replace("favicon.svg", "favicon-turn.svg") : baseIcon);

    var line = table.querySelector(".last-move"), announcer = document.getElementById("announcer");
    var text = line ? line.textContent.replace(/\s+/g, " ").trim() : "";
    if (announcer && announced !== null && text && text !== announced) announcer.textContent = text;
    announced = text;
  }
  document.addEventListener("htmx:load", showTurn);
  document.addEventListener("DOMContentLoaded", showTurn);

  // ------------------------------------------------------------- moves over the socket
  // While the table's socket is open, a move goes over it: no request of its own, and the
  // answer is the live table every reader gets (a refusal comes back with its message).
  // Without the socket the form posts as before.
  var socket = null;
  function tableSocket(event) {
    return (event.target.getAttribute("ws-connect") || "").indexOf("/ws/games/") === 0;
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    if (tableSocket(event)) socket = event.detail.socketWrapper;
  });
  document.addEventListener("htmx:wsClose", function (event) {
    if (!tableSocket(event)) return;
    socket = null;
    document.querySelectorAll("form[data-live-move][data-sending]").forEach(function (form) {
      window.durakForms.setBusy(form, false);  // the reconnect brings the table again
    });
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt.closest && event.detail.elt.closest("form[data-live-move]");
    if (!form || !socket || event.detail.verb !== "post") return;
    var fields = {};
    event.detail.formData.forEach(function (value, key) {
      (fields[key] = fields[key] || []).push(value);
    });
    event.preventDefault();  // no request: the move goes over the socket
    socket.send(JSON.stringify(fields), form);
    window.durakForms.setBusy(form, true);
    setTimeout(function () {  // no answer came: the player may try again
      if (form.isConnected) window.durakForms.setBusy(form, false);
    }, 10000);
  });
})();
