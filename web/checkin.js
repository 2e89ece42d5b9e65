/*
 * Reference check-in page, built only on the public endpoints. Configuration comes from
 * config.js: window.GROUPSHOOT_CONFIG = { apiBaseUrl, tenantSlug }. The gallery token is the
 * query parameter `token` or the last path segment; `tenant` in the query overrides the slug.
 * Tokens leave the address bar as soon as they are read (see takeAddressParameters).
 * This file holds what every view shares (window.GROUPSHOOT_PAGE: the API call, the status
 * line, the gallery's name and branding), the success and payment views, and the start; the
 * form is checkin-form.js, the My photos view my-photos.js.
 */
(function () {
  'use strict';
  var config = window.GROUPSHOOT_CONFIG || {};
  var i18n = window.GROUPSHOOT_I18N;
  var address = takeAddressParameters();
  var tenantSlug = address.tenant || config.tenantSlug;
  var token = address.token;
  /** What a paid check-in's success view recaps after the return from Stripe (this tab only). */
  var RECAP_KEY = 'groupshoot-recap';
  var $ = function (id) {
    return document.getElementById(id);
  };
  var galleryName = null;
  var shownRecap = null;

  /**
   * What the page's address carries: the gallery token (`token`, or the last path segment), the
   * tenant, and after Stripe's redirect `checkout` with its status or retry token. The tokens
   * are taken out of the address bar at once (history.replaceState), so that they do not stay
   * in the history entry, a shared or bookmarked address, or a screenshot; this tab keeps them
   * in sessionStorage, so that a reload still shows the form or the payment's status.
   * An address without any of them falls back to what this tab kept.
   */
  function takeAddressParameters() {
    var STORAGE_KEY = 'groupshoot-checkin';
    var query = new URLSearchParams(location.search);
    var segments = location.pathname.split('/');
    var last = segments[segments.length - 1];
    var pathToken = '';
    try {
      pathToken = last && last !== 'index.html' ? decodeURIComponent(last) : '';
    } catch (e) {
      /* not a token */
    }
    var names = ['token', 'tenant', 'checkout', 'statusToken', 'retryToken'];
    var carried =
      pathToken !== '' ||
      names.some(function (name) {
        return query.has(name);
      });
    if (!carried) {
      try {
        return JSON.parse(sessionStorage.getItem(STORAGE_KEY) || '{}') || {};
      } catch (e) {
        return {};
      }
    }
    var checkout = query.get('checkout') || undefined;
    var fromPath = !query.get('token') && pathToken !== '';
    var taken = {
      token: query.get('token') || pathToken || undefined,
      tenant: query.get('tenant') || undefined,
      checkout: checkout,
      statusToken: checkout === 'success' ? query.get('statusToken') || undefined : undefined,
      retryToken: checkout === 'cancel' ? query.get('retryToken') || undefined : undefined,
    };
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(taken));
    } catch (e) {
      /* storage off: a reload starts over */
    }
    names.forEach(function (name) {
      query.delete(name);
    });
    var path = fromPath ? segments.slice(0, -1).join('/') + '/' : location.pathname;
    var rest = query.toString();
    history.replaceState(history.state, '', path + (rest ? '?' + rest : '') + location.hash);
    return taken;
  }

  /** Waits a refused request out this many times (each at most 2 minutes) before showing the refusal. */
  var RATE_LIMIT_RETRIES = 5;

  /**
   * One API call; its JSON answer, or `{ ok: false, error: 'network' }`. A 429 is waited out
   * `retries` times (default RATE_LIMIT_RETRIES), counting down in `waitNode` (default: the
   * status line); one that is not carries `retryAfter` (seconds).
   */
  function api(method, path, body, retries, waitNode) {
    var left = retries === undefined ? RATE_LIMIT_RETRIES : retries;
    return fetch(config.apiBaseUrl + path, {
      method: method,
      headers: { 'Content-Type': 'application/json', 'X-Tenant-Slug': tenantSlug || '' },
      body: body ? JSON.stringify(body) : undefined,
    }).then(
      function (response) {
        var retryAfter = Number(response.headers.get('Retry-After')) || 5;
        if (response.status === 429 && left > 0) {
          return waitOut(Math.min(120, Math.max(1, retryAfter)), waitNode || $('status')).then(function () {
            return api(method, path, body, left - 1, waitNode);
          });
        }
        return response
          .json()
          .catch(function () {
            return { ok: false, error: 'internal_error' };
          })
          .then(function (answer) {
            if (response.status === 429) answer.retryAfter = retryAfter;
            return answer;
          });
      },
      function () {
        return { ok: false, error: 'network' };
      },
    );
  }

  /** Many participants behind one address (a company network) may meet the limit: say so where the participant looks, count down, go on. */
  function waitOut(seconds, node) {
    return new Promise(function (resolve) {
      (function tick(left) {
        if (left <= 0) {
          node.hidden = true;
          node.textContent = '';
          delete node.dataset.i18n;
          resolve();
          return;
        }
        i18n.setText(node, 'waiting', { count: left });
        if (node.hidden) {
          node.hidden = false;
          node.scrollIntoView({ block: 'nearest' });
        }
        setTimeout(function () {
          tick(left - 1);
        }, 1000);
      })(seconds);
    });
  }

  /** The status line at the top: a message key (and its values), or nothing. */
  function status(key, values) {
    if (key) i18n.setText($('status'), key, values);
    else {
      $('status').textContent = '';
      delete $('status').dataset.i18n;
    }
    $('status').hidden = !key;
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A server error's message: its sentence for participants, never the code itself. */
  function errorMessageKey(error) {
    return i18n.t('error.' + error) !== 'error.' + error ? 'error.' + error : 'somethingWrong';
  }

  /** The gallery's name heads every view, and its (or the tenant's) logo and accent colour brand it. */
  function showGallery(name, branding) {
    galleryName = name;
    $('title').textContent = name;
    delete $('title').dataset.i18n;
    updateDocumentTitle();
    var brand = branding || {};
    if (/^#[0-9a-fA-F]{6}$/.test(brand.accentColor || ''))
      document.documentElement.style.setProperty('--accent', brand.accentColor);
    if (brand.logoUrl) {
      $('logo').src = brand.logoUrl;
      $('logo').hidden = false;
    }
  }

  function updateDocumentTitle() {
    var view = document.querySelector('main').dataset.view === 'photos' ? i18n.t('myPhotosTitle') : null;
    document.title = view
      ? view + (galleryName ? ': ' + galleryName : '')
      : galleryName
        ? i18n.t('documentTitle', { gallery: galleryName })
        : i18n.t('pageTitle');
  }

  /**
   * The access code as a QR code (its text is the code exactly) in an SVG of crisp modules with
   * the standard quiet zone of 4, large enough on a phone screen for the photographer's camera
   * to read it as a camera card. Without the encoder (qr-encoder.js did not load) the code stays text.
   */
  function renderQr(container, code) {
    if (!window.QRCodeCore) return false;
    var modules = window.QRCodeCore.create(code, { errorCorrectionLevel: 'H' }).modules;
    var quiet = 4;
    var extent = modules.size + 2 * quiet;
    var path = '';
    for (var row = 0; row < modules.size; row += 1) {
      for (var column = 0; column < modules.size; column += 1) {
        if (modules.get(row, column)) path += 'M' + (column + quiet) + ' ' + (row + quiet) + 'h1v1h-1z';
      }
    }
    container.innerHTML =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' +
      extent +
      ' ' +
      extent +
      '" shape-rendering="crispEdges" aria-hidden="true">' +
      '<rect width="' +
      extent +
      '" height="' +
      extent +
      '" fill="#fff"/><path fill="#000" d="' +
      path +
      '"/></svg>';
    return true;
  }

  /** The recap of the success view: name, day, time and package, as far as the check-in had them. */
  function renderRecap(recap) {
    var list = $('recap');
    list.textContent = '';
    var rows = [['recapName', recap.name]];
    if (recap.day)
      rows.push(
        ['recapDay', i18n.dayDate(recap.day.date) + (recap.day.label ? ' (' + recap.day.label + ')' : '')],
        ['recapTime', i18n.timeRange(recap.day.startTime, recap.day.endTime)],
      );
    if (recap.packageName) rows.push(['recapPackage', recap.packageName]);
    rows.forEach(function (row) {
      var term = element('dt');
      i18n.setText(term, row[0]);
      list.appendChild(term);
      list.appendChild(element('dd', {}, row[1]));
    });
  }

  /** The success view of both paths: the recap, the access code as text and QR code, and the way to My photos. */
  function showCode(code, recap) {
    $('checkin').hidden = true;
    shownRecap = recap;
    renderRecap(recap);
    $('code').textContent = code;
    $('code-qr-figure').hidden = !renderQr($('code-qr'), code);
    $('done-photos-link').setAttribute('href', '#my-photos/' + encodeURIComponent(code));
    $('my-photos-link-row').hidden = true;
    $('done').hidden = false;
    $('done').focus();
    status('');
  }

  /** Before the redirect to Stripe: what the success view recaps after the return, and the gallery it heads. */
  function keepForReturn(recap, branding) {
    try {
      sessionStorage.setItem(RECAP_KEY, JSON.stringify({ galleryName: galleryName, branding: branding, recap: recap }));
    } catch (e) {
      /* storage off: no recap */
    }
  }

  function keptForReturn() {
    try {
      return JSON.parse(sessionStorage.getItem(RECAP_KEY) || '{}') || {};
    } catch (e) {
      return {};
    }
  }

  /** After a paid checkout: polls the reservation until the payment is confirmed. */
  function awaitPayment(statusToken, attempt) {
    var kept = keptForReturn();
    if (attempt === 0 && kept.galleryName) showGallery(kept.galleryName, kept.branding);
    status('confirming');
    api('POST', '/group-shoot', { action: 'checkinStatus', statusToken: statusToken }).then(function (answer) {
      if (answer.ok && answer.status === 'paid') {
        var recap = kept.recap || {};
        return showCode(answer.code, {
          name: answer.name || recap.name,
          day: recap.day,
          packageName: answer.packageName || recap.packageName,
        });
      }
      if (answer.ok && answer.status === 'pending' && attempt < 60)
        return setTimeout(function () {
          awaitPayment(statusToken, attempt + 1);
        }, 2000);
      status(answer.ok ? 'paymentNotCompleted' : errorMessageKey(answer.error));
    });
  }

  function offerRetry(retryToken) {
    var kept = keptForReturn();
    if (kept.galleryName) showGallery(kept.galleryName, kept.branding);
    $('cancelled').hidden = false;
    $('cancelled').focus();
    status('');
    $('retry').addEventListener('click', function () {
      $('retry').disabled = true;
      api('POST', '/group-shoot', {
        action: 'retryCheckout',
        retryToken: retryToken,
        returnUrl: location.origin + location.pathname,
      }).then(function (answer) {
        if (answer.ok) {
          location.assign(answer.checkoutUrl);
          return;
        }
        $('retry').disabled = false;
        status(errorMessageKey(answer.error));
      });
    });
  }

  /** What the form (checkin-form.js) and the My photos view (my-photos.js) share with this file. */
  var page = (window.GROUPSHOOT_PAGE = {
    token: token,
    tenantSlug: tenantSlug,
    api: api,
    element: element,
    status: status,
    errorMessageKey: errorMessageKey,
    showGallery: showGallery,
    updateDocumentTitle: updateDocumentTitle,
    showCode: showCode,
    keepForReturn: keepForReturn,
  });

  i18n.renderSwitcher($('language'));
  i18n.onChange(function () {
    updateDocumentTitle();
    if (shownRecap) renderRecap(shownRecap);
  });
  i18n.apply();

  function start() {
    if (address.checkout === 'success' && address.statusToken) return awaitPayment(address.statusToken, 0);
    if (address.checkout === 'cancel' && address.retryToken) return offerRetry(address.retryToken);
    if (!token || !tenantSlug) return status('linkIncomplete');
    page.loadForm();
  }
  document.addEventListener('DOMContentLoaded', start);
})();
