// Honest forms (docs/design.md, "Honest forms"): a choice the server would refuse is
// disabled as the other choices change. games.forms marks the fields: a select with
// data-most-by="players" data-most-less="1" offers at most players - 1; a checkbox with
// data-only-if="rated=casual" only while that choice is made; radio buttons with
// data-follows="private" are chosen by that box (below). The server checks anyway.
(function () {
  "use strict";

  function fit(form) {
    form.querySelectorAll("select[data-most-by]").forEach(function (select) {
      var by = form.elements[select.getAttribute("data-most-by")];
      if (!by || by.value === "") return;
      var most = Number(by.value) - Number(select.getAttribute("data-most-less") || 0);
      var last = null;
      Array.prototype.forEach.call(select.options, function (option) {
        option.disabled = Number(option.value) > most;
        if (!option.disabled) last = option;
      });
      var chosen = select.options[select.selectedIndex];
      if (chosen && chosen.disabled && last) last.selected = true;
    });
    form.querySelectorAll("input[data-only-if]").forEach(function (box) {
      var rule = box.getAttribute("data-only-if").split("=");
      var field = form.elements[rule[0]];
      var on = Boolean(field) && field.value === rule[1];  // a radio group: the checked one
      box.disabled = !on;
      if (!on) box.checked = false;
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.form) fit(event.target.form);
    if (event.target.type === "checkbox" && event.target.form) follow(event.target.form, event.target);
  });

  // A choice that follows a box (games.forms.FollowingRadioSelect): the rating of a new
  // table is casual when it is private, rated when it is not. Ticking the box chooses
  // again; the person may still pick the other one after. With nothing chosen (the page
  // just shown), the box's state chooses.
  function follow(form, box) {
    form.querySelectorAll("input[type=radio][data-follows]").forEach(function (radio) {
      var followed = form.elements[radio.getAttribute("data-follows")];
      if (!followed || (box && followed !== box)) return;
      if (!box && form.querySelector("input[type=radio][name=\"" + radio.name + "\"]:checked")) return;
      if (radio.getAttribute("data-when") === (followed.checked ? "on" : "off")) radio.checked = true;
    });
  }
  function followAll(root) {
    var forms = root.tagName === "FORM" ? [root] : root.querySelectorAll("form");
    Array.prototype.forEach.call(forms, function (form) { follow(form, null); });
  }
  followAll(document);
  document.addEventListener("htmx:load", function (event) { followAll(event.detail.elt); });

  // A form the server fits again to a changed choice (games.forms._refit_on_change)
  // comes back as it was sent: whatever was typed or chosen while the request was on
  // its way (the number of rounds, just after the rules) is put back into the new one.
  function key(field) {
    return field.type === "checkbox" || field.type === "radio"
      ? field.name + "=" + field.value : field.name;
  }
  function value(field) {
    return field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
  }
  function values(form) {
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name) seen[key(field)] = value(field);
    });
    return seen;
  }
  var sent = new WeakMap();
  var pending = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    if (target && target.tagName === "FORM" && target.id) sent.set(target, values(target));
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var before = target && sent.get(target);
    if (!before) return;
    sent.delete(target);
    var now = values(target), changed = {}, any = false;
    Object.keys(now).forEach(function (name) {
      if (name in before && now[name] !== before[name]) { changed[name] = now[name]; any = true; }
    });
    pending = any ? { id: target.id, changed: changed } : null;
  });
  document.addEventListener("htmx:load", function () {
    if (!pending) return;
    var form = document.getElementById(pending.id);
    if (!form || form.tagName !== "FORM") return;
    var changed = pending.changed;
    pending = null;
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || !(key(field) in changed)) return;
      if (field.type === "checkbox" || field.type === "radio") field.checked = changed[key(field)];
      else field.value = changed[key(field)];
    });
    fit(form);
  });
})();
