// With DEBUG, django-htmx's script shows every 400/403/404 answer as a whole error page in
// place of this one. Our refusals are partials (the table or a form, with a message) that
// htmx swaps in as configured in _base.html, so keep them from it; whole pages still go.
document.documentElement.addEventListener("htmx:beforeOnLoad", function (event) {
  var xhr = event.detail.xhr;
  if (xhr.status >= 400 && xhr.status < 500 && !/^\s*(<!doctype|<html)/i.test(xhr.response)) {
    event.stopPropagation();
  }
});
