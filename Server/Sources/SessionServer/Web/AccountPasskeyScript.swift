import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /account/passkeys.js`: the account page's only script, served as a
/// file so the Content-Security-Policy keeps refusing inline script
/// (`script-src 'self'`, docs/PASSKEYS.md, "The account page").
///
/// It drives the WebAuthn ceremonies with the server's options (GoTrue's
/// shapes: registration's under `options.publicKey`), converting base64url to
/// bytes and back itself, so it works in browsers without
/// `PublicKeyCredential.parseCreationOptionsFromJSON()`. It writes text with
/// `textContent` only, never HTML.
enum AccountPasskeyScript {
    static func response() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: source)))
    }

    static let source = #"""
        "use strict";
        (() => {
          const bytes = (text) => {
            let b64 = text.replace(/-/g, "+").replace(/_/g, "/");
            while (b64.length % 4) b64 += "=";
            const binary = atob(b64);
            const out = new Uint8Array(binary.length);
            for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
            return out.buffer;
          };
          const text = (buffer) => {
            let binary = "";
            for (const b of new Uint8Array(buffer)) binary += String.fromCharCode(b);
            return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          };
          const descriptors = (list) => (list || []).map((d) => ({ ...d, id: bytes(d.id) }));
          const creationOptions = (o) => ({
            ...o, challenge: bytes(o.challenge), user: { ...o.user, id: bytes(o.user.id) },
            excludeCredentials: descriptors(o.excludeCredentials),
          });
          const requestOptions = (o) => ({ ...o, challenge: bytes(o.challenge), allowCredentials: descriptors(o.allowCredentials) });
          const registrationJSON = (c) => ({
            id: c.id, rawId: text(c.rawId), type: c.type, clientExtensionResults: {},
            response: {
              clientDataJSON: text(c.response.clientDataJSON), attestationObject: text(c.response.attestationObject),
              transports: c.response.getTransports ? c.response.getTransports() : [],
            },
          });
          const assertionJSON = (c) => ({
            id: c.id, rawId: text(c.rawId), type: c.type, clientExtensionResults: {},
            response: {
              clientDataJSON: text(c.response.clientDataJSON), authenticatorData: text(c.response.authenticatorData),
              signature: text(c.response.signature), userHandle: c.response.userHandle ? text(c.response.userHandle) : null,
            },
          });

          async function call(method, path, body, csrf) {
            const headers = { Accept: "application/json" };
            if (body !== undefined) headers["Content-Type"] = "application/json";
            if (csrf) headers["X-CSRF-Token"] = csrf;
            const response = await fetch(path, {
              method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
            });
            const raw = await response.text();
            let data = null;
            try { data = raw ? JSON.parse(raw) : null; } catch (_) { data = null; }
            if (!response.ok) {
              const error = new Error((data && (data.msg || data.message)) || `The server answered ${response.status}.`);
              error.status = response.status;
              throw error;
            }
            return data;
          }
          const say = (node, message, isError) => {
            node.textContent = message;
            node.className = message ? (isError ? "alert" : "note") : "";
          };
          const cancelled = (error) => error && (error.name === "NotAllowedError" || error.name === "AbortError");
          const signInOptions = () => call("POST", "/auth/v1/passkeys/authentication/options", {});

          async function signInPage(section) {
            const enabled = await call("GET", "/account/passkeys/enabled");
            if (!enabled.enabled || !window.PublicKeyCredential) return;
            section.hidden = false;
            const status = section.querySelector("#passkey-sign-in-status");
            let pending = null;
            const run = async (mediation) => {
              const options = await signInOptions();
              const controller = new AbortController();
              if (mediation === "conditional") pending = controller;
              const credential = await navigator.credentials.get({
                publicKey: requestOptions(options.options), mediation, signal: controller.signal,
              });
              if (!credential) return;
              say(status, "Signing you in…", false);
              const done = await call("POST", "/account/passkeys/sign-in", {
                challenge_id: options.challenge_id, credential: assertionJSON(credential),
              });
              window.location.assign(done.redirect);
            };
            section.querySelector("#passkey-sign-in-button").addEventListener("click", async () => {
              if (pending) { pending.abort(); pending = null; }
              say(status, "", false);
              try { await run("optional"); } catch (error) {
                say(status, cancelled(error) ? "No passkey was chosen. Try again, or sign in another way." : error.message, true);
              }
            });
            // Passkeys offered in the email field's autofill, where the browser can (conditional mediation).
            if (PublicKeyCredential.isConditionalMediationAvailable && await PublicKeyCredential.isConditionalMediationAvailable()) {
              section.querySelector("#passkey-autofill").hidden = false;
              run("conditional").catch((error) => { if (!cancelled(error)) say(status, error.message, true); });
            }
          }

          async function accountPage(section) {
            const csrf = section.dataset.csrf;
            const status = section.querySelector("#passkeys-status");
            const rows = section.querySelector("#passkey-list tbody");
            let list;
            try { list = await call("GET", "/account/passkeys", undefined, csrf); } catch (error) {
              if (error.status === 404) return;
              section.hidden = false;
              say(status, error.message, true);
              return;
            }
            section.hidden = false;
            if (!window.PublicKeyCredential) {
              say(status, "This browser cannot use passkeys.", true);
              section.querySelector("#add-passkey").disabled = true;
            }
            // Proof before a change: a fresh assertion; none if the person cancels (the server's rule decides then).
            const proof = async () => {
              const options = await signInOptions();
              try {
                const credential = await navigator.credentials.get({ publicKey: requestOptions(options.options) });
                return { challenge_id: options.challenge_id, credential: assertionJSON(credential) };
              } catch (error) {
                if (cancelled(error)) return {};
                throw error;
              }
            };
            const act = (work) => async () => {
              say(status, "", false);
              try { say(status, await work(), false); await refresh(); } catch (error) {
                say(status, cancelled(error) ? "Cancelled: nothing changed." : error.message, true);
              }
            };
            const when = (iso) => (iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "never");
            const cell = (value, label) => {
              const td = document.createElement("td");
              td.textContent = value;
              if (label) td.dataset.label = label;
              return td;
            };
            const render = () => {
              rows.replaceChildren();
              // "How you sign in" names passkeys while the account has one.
              const methods = document.getElementById("sign-in-methods");
              let method = methods && methods.querySelector("li[data-method=passkey]");
              if (methods && list.length && !method) {
                method = document.createElement("li");
                method.dataset.method = "passkey";
                method.textContent = "With a passkey";
                methods.append(method);
              }
              if (method && !list.length) method.remove();
              section.querySelector("#no-passkeys").hidden = list.length > 0;
              for (const passkey of list) {
                const name = passkey.friendly_name || "Passkey";
                const tr = document.createElement("tr");
                tr.dataset.passkey = passkey.id;
                tr.append(cell(name), cell(when(passkey.created_at), "Added"), cell(when(passkey.last_used_at), "Last used"));
                const actions = document.createElement("td");
                const field = document.createElement("input");
                field.type = "text"; field.maxLength = 120; field.value = name; field.className = "passkey-new-name";
                const label = document.createElement("label");
                label.append(`New name for ${name}`, field);
                const rename = document.createElement("button");
                rename.type = "button"; rename.className = "rename-passkey"; rename.textContent = "Rename";
                rename.addEventListener("click", act(async () => {
                  await call("POST", `/account/passkeys/${passkey.id}/rename`, { ...(await proof()), friendly_name: field.value }, csrf);
                  return "The passkey is renamed.";
                }));
                const remove = document.createElement("button");
                remove.type = "button"; remove.className = "danger remove-passkey"; remove.textContent = "Remove";
                remove.setAttribute("aria-label", `Remove ${name}`);
                remove.addEventListener("click", act(async () => {
                  await call("POST", `/account/passkeys/${passkey.id}/remove`, await proof(), csrf);
                  return "The passkey is removed: it no longer signs in to this account.";
                }));
                actions.append(label, rename, " ", remove);
                tr.append(actions);
                rows.append(tr);
              }
            };
            const refresh = async () => { list = await call("GET", "/account/passkeys", undefined, csrf); render(); };
            render();
            section.querySelector("#add-passkey").addEventListener("click", act(async () => {
              const options = await call("POST", "/account/passkeys/registration/options", {}, csrf);
              const credential = await navigator.credentials.create({ publicKey: creationOptions(options.options.publicKey) });
              const name = section.querySelector("#passkey-name").value.trim();
              const body = { challenge_id: options.challenge_id, credential: registrationJSON(credential) };
              if (name) body.friendly_name = name;
              await call("POST", "/account/passkeys/registration/verify", body, csrf);
              section.querySelector("#passkey-name").value = "";
              return "The passkey is added: use it to sign in next time.";
            }));
          }

          const start = () => {
            const signIn = document.getElementById("passkey-sign-in");
            if (signIn) signInPage(signIn).catch(() => {});
            const account = document.getElementById("passkeys");
            if (account) accountPage(account).catch(() => {});
          };
          if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
        })();
        """#
}
