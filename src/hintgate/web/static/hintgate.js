// hintgate's dashboard: htmx requests to the REST API go as JSON, and a
// successful one refreshes the fragments it affected.
//
// - The `hintgate-json` extension (on <body>) encodes a form's fields as a JSON
//   object: "true" / "false" become booleans, "inherit" becomes null (take the
//   override off), and a dotted name nests ("preferences.autoApproveReadOnly").
//   A name ending "?" is left out when empty; "[]" makes a list of the
//   non-empty lines; "{}" makes an object of NAME=VALUE lines (left out when
//   empty): the add-server form's command, args and env.
// - After a request from an element with `data-refresh="#a #b"`, each of those
//   elements gets a `refresh` event (their hx-trigger reloads them).
// - The outcome is written into the nearest feedback line: `data-feedback`
//   names it, else the form's `.feedback`; `data-done` is the success text, a
//   failure shows the API's `detail`.
// - A `data-connect="SERVER"` button starts that server's OAuth login: a new
//   tab goes to the authorization server, and the page reloads once the login
//   is done (the server then connects).
// - A `data-fill-server='{"name": ..., "command": ...}'` button (a registry
//   search's Use) fills the Add server form with those fields, clears the rest,
//   and leaves the person to check it and press Add server.
(function () {
  "use strict";

  function typed(value) {
    if (value === "true") return true;
    if (value === "false") return false;
    if (value === "inherit") return null;
    return value;
  }

  htmx.defineExtension("hintgate-json", {
    onEvent: function (name, event) {
      if (name === "htmx:configRequest" && event.detail.verb !== "get") {
        event.detail.headers["Content-Type"] = "application/json";
        event.detail.headers["X-Hintgate-Request"] = "1";
      }
      return true;
    },
    encodeParameters: function (xhr, parameters) {
      xhr.overrideMimeType("application/json");
      var body = {};
      parameters.forEach(function (value, key) {
        var marker = key.slice(-1) === "?" ? "?" : key.slice(-2);
        if (marker === "?" || marker === "[]" || marker === "{}") {
          key = key.slice(0, -marker.length);
          var lines = String(value).split(/\r?\n/).map(function (l) { return l.trim(); }).filter(Boolean);
          if (marker === "[]") {
            if (!lines.length) return;
            value = lines;
          } else if (marker === "{}") {
            if (!lines.length) return;
            var object = {};
            lines.forEach(function (line) {
              var at = line.indexOf("=");
              object[at < 0 ? line : line.slice(0, at)] = at < 0 ? "" : line.slice(at + 1);
            });
            value = object;
          } else if (String(value).trim() === "") {
            return;
          }
          body[key] = value;
          return;
        }
        var path = key.split(".");
        var target = body;
        for (var i = 0; i < path.length - 1; i++) {
          if (typeof target[path[i]] !== "object" || target[path[i]] === null) target[path[i]] = {};
          target = target[path[i]];
        }
        target[path[path.length - 1]] = typed(value);
      });
      return JSON.stringify(body);
    },
  });

  function feedbackFor(elt) {
    var selector = elt.getAttribute("data-feedback");
    if (selector) return document.querySelector(selector);
    var form = elt.closest("form");
    return form ? form.querySelector(".feedback") : null;
  }

  function problem(xhr) {
    try {
      var body = JSON.parse(xhr.responseText);
      if (body && typeof body.detail === "string") return body.detail;
    } catch (ignored) {
      // not JSON: fall through to the status line
    }
    return xhr.status ? "HTTP " + xhr.status + " " + xhr.statusText : "the gateway did not answer";
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    var refresh = elt.getAttribute("data-refresh");
    var done = elt.getAttribute("data-done");
    if (refresh === null && done === null) return;
    var feedback = feedbackFor(elt);
    if (event.detail.successful) {
      if (feedback) {
        feedback.textContent = done || "Saved.";
        feedback.classList.remove("feedback-error");
      }
      (refresh || "").split(/\s+/).forEach(function (selector) {
        var target = selector && document.querySelector(selector);
        if (target) htmx.trigger(target, "refresh");
      });
    } else if (feedback) {
      feedback.textContent = "Not done: " + problem(event.detail.xhr);
      feedback.classList.add("feedback-error");
    }
  });

  function say(name, text, failed) {
    var line = document.getElementById("connect-" + name);
    if (!line) return;
    line.textContent = text;
    line.classList.toggle("feedback-error", !!failed);
  }

  function follow(name, path) {
    fetch(path, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        if (body.state === "done") {
          say(name, "Logged in; connecting.", false);
          window.setTimeout(function () { window.location.reload(); }, 1000);
        } else if (body.state === "failed") {
          say(name, "Not logged in: " + (body.error || "the login failed"), true);
        } else {
          window.setTimeout(function () { follow(name, path); }, 1000);
        }
      })
      .catch(function () { say(name, "Not logged in: the gateway did not answer", true); });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-fill-server]");
    if (!button) return;
    var fields = JSON.parse(button.getAttribute("data-fill-server"));
    ["name", "command", "args", "env", "url", "headers"].forEach(function (field) {
      var input = document.getElementById("server-" + field);
      if (input) input.value = fields[field] || "";
    });
    var form = document.getElementById("add-server");
    var feedback = form && form.querySelector(".feedback");
    if (feedback) {
      feedback.textContent = "Filled from the registry: check it, set what it reads from the environment, then Add server.";
      feedback.classList.remove("feedback-error");
    }
    var name = document.getElementById("server-name");
    if (name) name.focus();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-connect]");
    if (!button) return;
    var name = button.getAttribute("data-connect");
    var path = "/api/servers/" + encodeURIComponent(name) + "/login";
    // Opened now, while the click counts as the user's: a tab opened after the request is a blocked popup.
    var tab = window.open("", "_blank");
    if (tab) tab.opener = null;
    say(name, "Starting the login...", false);
    fetch(path, { method: "POST", credentials: "same-origin", headers: { "X-Hintgate-Request": "1" } })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (answer) {
        if (!answer.ok) {
          if (tab) tab.close();
          say(name, "Not started: " + (answer.body.detail || "the gateway refused"), true);
          return;
        }
        if (tab) tab.location.href = answer.body.authorization_url;
        else window.open(answer.body.authorization_url, "_blank", "noopener");
        say(name, "Log in and consent in the new tab; this page updates when you are done.", false);
        follow(name, path);
      })
      .catch(function () {
        if (tab) tab.close();
        say(name, "Not started: the gateway did not answer", true);
      });
  });
})();
