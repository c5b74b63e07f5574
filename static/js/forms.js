// A form that changes something is sent once: a double click makes one request.
(function () {
  "use strict";

  function buttons(form) {
    return form.querySelectorAll("button:not([type=button]):not([type=reset]), input[type=submit]");
  }

  function setBusy(form, busy) {
    form.toggleAttribute("data-sending", busy);
    buttons(form).forEach(function (button) { button.disabled = busy; });
  }
  window.durakForms = { setBusy: setBusy };  // for forms sent another way (table.js)

  function isHtmx(form) {
    return Array.prototype.some.call(form.attributes, function (attr) {
      return /^(data-)?(hx-|ws-send)/.test(attr.name);
    });
  }

  // Plain forms: the first submit goes; any later one is dropped until the page changes.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.method !== "post" || isHtmx(form)) return;
    if (form.hasAttribute("data-sending")) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    form.setAttribute("data-sending", "");
    // Disabled after the browser has read the clicked button's name and value.
    setTimeout(function () { setBusy(form, true); }, 0);
  }, true);

  // A page shown again from the back/forward cache can be sent again.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) document.querySelectorAll("form[data-sending]").forEach(function (form) {
      setBusy(form, false);
    });
  });

  // htmx forms: buttons off while the request runs, and for good when it sends us elsewhere.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (form && event.detail.requestConfig.verb !== "get") setBusy(form, true);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt.closest && event.detail.elt.closest("form");
    var xhr = event.detail.xhr;
    if (!form || !form.hasAttribute("data-sending")) return;
    if (event.detail.successful && xhr && xhr.getResponseHeader("HX-Redirect")) return;
    setBusy(form, false);
  });
})();
