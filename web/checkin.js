/*
 * Reference check-in page, built only on the public endpoints. Configuration comes from
 * config.js: window.GROUPSHOOT_CONFIG = { apiBaseUrl, tenantSlug }. The gallery token is the
 * query parameter `token` or the last path segment; `tenant` in the query overrides the slug.
 * Tokens leave the address bar as soon as they are read (see takeAddressParameters).
 * The My photos view (my-photos.js) uses what this file exposes as window.GROUPSHOOT_PAGE.
 */
(function () {
  'use strict';
  var config = window.GROUPSHOOT_CONFIG || {};
  var address = takeAddressParameters();
  var tenantSlug = address.tenant || config.tenantSlug;
  var token = address.token;
  var MAX_SELFIE_BYTES = 3 * 1024 * 1024;
  var $ = function (id) { return document.getElementById(id); };
  var selfieBase64 = null;

  /** What participants read for each error code; never the code itself. */
  var MESSAGES = {
    name_required: 'Please enter your name.',
    email_required: 'Please enter your email address.',
    consent_required: 'Please accept the consent to check in.',
    selfie_required: 'Please add a selfie.',
    invalid_selfie: 'This picture could not be read. Please take or choose another one.',
    selfie_too_large: 'This picture is too large. Please choose a smaller one.',
    invalid_shooting_day: 'This shooting day is no longer offered. Please choose another.',
    shooting_day_full: 'This shooting day is fully booked. Please choose another.',
    package_not_found: 'This package is no longer offered. Please choose another.',
    terms_not_accepted: 'Please accept the terms of the paid package.',
    payment_access_not_approved: 'Paid packages cannot be bought here yet. Please choose another package.',
    connect_not_ready_for_payments: 'Paid packages cannot be bought right now. Please choose another package.',
    package_amount_exceeds_limit: 'This package cannot be paid online. Please choose another package.',
    payment_provider_unavailable: 'The payment service is not reachable right now. Please try again in a moment.',
    gallery_not_found: 'This check-in link is not valid. Please ask your photographer for the right one.',
    not_a_groupshoot_gallery: 'This gallery has no check-in. Please ask your photographer for the right link.',
    invalid_tenant: 'This check-in page is not set up correctly.',
    rate_limit_exceeded: 'Too many attempts. Please wait a moment and try again.',
    storage_unavailable: 'Saving did not work this time. Please try again.',
    email_domain_not_allowed: 'Please use your work email address.',
    not_on_guest_list: 'This check-in is for invited participants. Please use the email address (or employee ID) your organisation gave the studio.',
  };
  /** Which field an error belongs next to. */
  var FIELD_OF = {
    name_required: 'name', email_required: 'email', email_domain_not_allowed: 'email', not_on_guest_list: 'email',
    consent_required: 'consentGiven',
    selfie_required: 'selfieBase64', invalid_selfie: 'selfieBase64', selfie_too_large: 'selfieBase64',
    invalid_shooting_day: 'shootingDayId', shooting_day_full: 'shootingDayId',
    package_not_found: 'selectedPackageId', terms_not_accepted: 'termsAccepted',
    payment_access_not_approved: 'selectedPackageId', connect_not_ready_for_payments: 'selectedPackageId',
    package_amount_exceeds_limit: 'selectedPackageId',
  };

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
    try { pathToken = last && last !== 'index.html' ? decodeURIComponent(last) : ''; } catch (e) { /* not a token */ }
    var names = ['token', 'tenant', 'checkout', 'statusToken', 'retryToken'];
    var carried = pathToken !== '' || names.some(function (name) { return query.has(name); });
    if (!carried) {
      try { return JSON.parse(sessionStorage.getItem(STORAGE_KEY) || '{}') || {}; } catch (e) { return {}; }
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
    try { sessionStorage.setItem(STORAGE_KEY, JSON.stringify(taken)); } catch (e) { /* storage off: a reload starts over */ }
    names.forEach(function (name) { query.delete(name); });
    var path = fromPath ? segments.slice(0, -1).join('/') + '/' : location.pathname;
    var rest = query.toString();
    history.replaceState(history.state, '', path + (rest ? '?' + rest : '') + location.hash);
    return taken;
  }

  /** Waits a refused request out this many times (each at most 2 minutes) before showing the refusal. */
  var RATE_LIMIT_RETRIES = 5;

  /**
   * One API call; its JSON answer, or `{ ok: false, error: 'network' }`. A 429 is waited out
   * `retries` times (default RATE_LIMIT_RETRIES); one that is not carries `retryAfter` (seconds).
   */
  function api(method, path, body, retries) {
    var left = retries === undefined ? RATE_LIMIT_RETRIES : retries;
    return fetch(config.apiBaseUrl + path, {
      method: method,
      headers: { 'Content-Type': 'application/json', 'X-Tenant-Slug': tenantSlug || '' },
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (response) {
      var retryAfter = Number(response.headers.get('Retry-After')) || 5;
      if (response.status === 429 && left > 0) {
        return waitOut(Math.min(120, Math.max(1, retryAfter))).then(function () { return api(method, path, body, left - 1); });
      }
      return response.json().catch(function () { return { ok: false, error: 'internal_error' }; }).then(function (answer) {
        if (response.status === 429) answer.retryAfter = retryAfter;
        return answer;
      });
    }, function () { return { ok: false, error: 'network' }; });
  }

  /** What the My photos view (my-photos.js) shares with the check-in. */
  window.GROUPSHOOT_PAGE = { token: token, tenantSlug: tenantSlug, api: api, element: element, status: status };

  /** Many participants behind one address (a company network) may meet the limit: say so, count down, go on. */
  function waitOut(seconds) {
    return new Promise(function (resolve) {
      (function tick(left) {
        if (left <= 0) { status(''); resolve(); return; }
        status('Many people are checking in right now. Trying again in ' + left + (left === 1 ? ' second…' : ' seconds…'));
        setTimeout(function () { tick(left - 1); }, 1000);
      })(seconds);
    });
  }

  function status(text) { $('status').textContent = text; $('status').hidden = !text; }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function money(minor, currency) {
    try { return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100); }
    catch (e) { return (minor / 100).toFixed(2) + ' ' + currency.toUpperCase(); }
  }

  function renderFormFields(fields) {
    var container = $('form-fields');
    fields.forEach(function (field) {
      var wrapper = element('div', { class: 'field' });
      var label = element('label', { for: field.key }, field.label + ' ');
      if (field.required) label.appendChild(element('span', { class: 'required', 'aria-hidden': 'true' }, '*'));
      var input;
      if (field.type === 'select') {
        input = element('select', { id: field.key });
        input.appendChild(element('option', { value: '' }, 'Choose…'));
        field.options.forEach(function (option) { input.appendChild(element('option', { value: option.value }, option.label)); });
      } else if (field.type === 'textarea') {
        input = element('textarea', { id: field.key, maxlength: field.key === 'notes' ? '1000' : '2000' });
      } else {
        input = element('input', { id: field.key, type: field.type === 'number' ? 'number' : 'text', inputmode: field.type === 'number' ? 'decimal' : 'text' });
      }
      if (field.required) input.setAttribute('required', '');
      input.dataset.formField = field.key.indexOf('custom-') === 0 ? 'custom' : 'builtIn';
      input.setAttribute('aria-describedby', field.key + '-error');
      wrapper.appendChild(label);
      wrapper.appendChild(input);
      wrapper.appendChild(element('p', { class: 'error', id: field.key + '-error', hidden: '' }));
      container.appendChild(wrapper);
    });
  }

  function renderChoices(containerId, name, entries) {
    var container = $(containerId);
    entries.forEach(function (entry, index) {
      var label = element('label', { class: 'choice' });
      var input = element('input', { type: 'radio', name: name, value: entry.value, id: name + '-' + index });
      if (entry.disabled) input.disabled = true;
      label.appendChild(input);
      label.appendChild(element('span', {}, entry.label));
      if (entry.note) label.appendChild(element('small', {}, entry.note));
      container.appendChild(label);
    });
  }

  function render(info) {
    // The My photos view shows the ways in this gallery takes.
    window.GROUPSHOOT_PAGE.photoAccess = info.photoAccess;
    document.dispatchEvent(new CustomEvent('groupshoot:photo-access'));
    document.title = 'Check in: ' + info.galleryName;
    $('title').textContent = info.galleryName;
    renderFormFields(info.formFields || []);
    renderEmailHint(info.allowedEmailDomains || [], info.checkinMode);
    if (info.showShootingDaySelector && info.shootingDays.length) {
      $('days-field').hidden = false;
      renderChoices('days', 'shootingDayId', info.shootingDays.map(function (day) {
        var full = day.spotsRemaining === 0;
        return {
          value: day.id,
          label: day.label + ', ' + day.date + ' ' + day.startTime + '–' + day.endTime,
          note: day.spotsRemaining === undefined ? '' : full ? '(full)' : '(' + day.spotsRemaining + ' left)',
          disabled: full,
        };
      }));
    }
    if (info.packages.length) {
      $('packages-field').hidden = false;
      $('orderNotes-field').hidden = false;
      renderChoices('packages', 'selectedPackageId', info.packages.map(function (pkg) {
        return { value: pkg.id, label: pkg.name, note: pkg.price ? money(pkg.price, pkg.currency) : 'included' };
      }));
      $('packages').addEventListener('change', function () {
        var chosen = info.packages.filter(function (pkg) { return pkg.id === selectedValue('selectedPackageId'); })[0];
        $('terms-field').hidden = !(chosen && chosen.requiresPayment);
      });
    }
    if (info.selfieEnabled) {
      $('selfie-field').hidden = false;
      $('selfie-required').hidden = !info.selfieRequired;
    }
    var consents = info.granularConsents || {};
    $('consentGiven-field').hidden = !info.consentRequired;
    if (info.consentText) $('consent-text').textContent = info.consentText;
    $('faceConsent-field').hidden = !consents.face;
    $('notificationConsent-field').hidden = !consents.notification;
    $('hrExportConsent-field').hidden = !consents.hrExport;
    $('consents-field').hidden = !(info.consentRequired || consents.face || consents.notification || consents.hrExport);
    $('checkin').hidden = false;
    status('');
  }

  /** Tells participants which address to use: the gallery's domains, the one the studio was given. */
  function renderEmailHint(domains, mode) {
    var named = domains.map(function (domain) { return domain.indexOf('*.') === 0 ? 'any subdomain of ' + domain.slice(2) : domain; });
    var hints = [];
    if (named.length) hints.push('Use your address at ' + named.join(' or ') + '.');
    if (mode === 'importedOnly') hints.push('Use the address your organisation gave the studio.');
    $('email-hint').textContent = hints.join(' ');
    $('email-hint').hidden = hints.length === 0;
  }

  function selectedValue(name) {
    var checked = document.querySelector('input[name="' + name + '"]:checked');
    return checked ? checked.value : undefined;
  }

  /** Downscales a picture to at most 1024 px in a canvas and encodes it as JPEG (orientation applied, metadata gone). */
  function readSelfie(file) {
    return createImageBitmap(file, { imageOrientation: 'from-image' }).then(function (bitmap) {
      var scale = Math.min(1, 1024 / Math.max(bitmap.width, bitmap.height));
      var canvas = element('canvas');
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      var quality = 0.85;
      var dataUrl = canvas.toDataURL('image/jpeg', quality);
      while (dataUrl.length * 0.75 > MAX_SELFIE_BYTES && quality > 0.3) {
        quality -= 0.15;
        dataUrl = canvas.toDataURL('image/jpeg', quality);
      }
      return dataUrl;
    });
  }

  function clearErrors() {
    document.querySelectorAll('.error').forEach(function (node) { node.hidden = true; node.textContent = ''; });
    document.querySelectorAll('[aria-invalid]').forEach(function (node) { node.removeAttribute('aria-invalid'); });
  }

  /** Shows an answer's error next to its field and moves focus there. */
  function showError(answer) {
    var field = FIELD_OF[answer.error] || answer.field || answer.key;
    var message = MESSAGES[answer.error] || (answer.error === 'invalid_field' || answer.error === 'invalid_custom_field'
      ? 'Please check this entry.' : 'Something went wrong. Please try again.');
    var target = field && $(field + '-error');
    if (!target) target = $('form-error');
    target.textContent = message;
    target.hidden = false;
    var input = field && ($(field) || document.querySelector('input[name="' + field + '"]'));
    if (input) { input.setAttribute('aria-invalid', 'true'); input.focus(); }
    else { target.setAttribute('tabindex', '-1'); target.focus(); }
  }

  function collect() {
    var body = {
      action: 'submitCheckin',
      token: token,
      name: $('name').value,
      email: $('email').value,
      shootingDayId: selectedValue('shootingDayId'),
      selectedPackageId: selectedValue('selectedPackageId'),
      termsAccepted: $('termsAccepted').checked,
      orderNotes: $('orderNotes').value || undefined,
      selfieBase64: selfieBase64 || undefined,
      returnUrl: location.origin + location.pathname,
      customFields: {},
    };
    ['consentGiven', 'faceConsent', 'notificationConsent', 'hrExportConsent'].forEach(function (id) {
      if (!$(id + '-field').hidden) body[id] = $(id).checked;
    });
    document.querySelectorAll('[data-form-field]').forEach(function (input) {
      if (input.value === '') return;
      if (input.dataset.formField === 'custom') body.customFields[input.id] = input.value;
      else body[input.id] = input.value;
    });
    return body;
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
    container.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + extent + ' ' + extent + '" shape-rendering="crispEdges">' +
      '<rect width="' + extent + '" height="' + extent + '" fill="#fff"/><path fill="#000" d="' + path + '"/></svg>';
    return true;
  }

  function showCode(code) {
    $('checkin').hidden = true;
    $('code').textContent = code;
    $('code-qr-figure').hidden = !renderQr($('code-qr'), code);
    $('done-photos-link').setAttribute('href', '#my-photos/' + encodeURIComponent(code));
    $('done').hidden = false;
    $('done').focus();
    status('');
  }

  function submit(event) {
    event.preventDefault();
    clearErrors();
    $('submit').disabled = true;
    api('POST', '/group-shoot', collect()).then(function (answer) {
      $('submit').disabled = false;
      if (answer.ok && answer.checkoutUrl) { status('Redirecting to payment…'); location.assign(answer.checkoutUrl); return; }
      if (answer.ok) { showCode(answer.code); return; }
      showError(answer);
    });
  }

  /** After a paid checkout: polls the reservation until the payment is confirmed. */
  function awaitPayment(statusToken, attempt) {
    status('Confirming your payment…');
    api('POST', '/group-shoot', { action: 'checkinStatus', statusToken: statusToken }).then(function (answer) {
      if (answer.ok && answer.status === 'paid') return showCode(answer.code);
      if (answer.ok && answer.status === 'pending' && attempt < 60) return setTimeout(function () { awaitPayment(statusToken, attempt + 1); }, 2000);
      status(answer.ok ? 'The payment was not completed. Please check in again.' : MESSAGES[answer.error] || 'Something went wrong.');
    });
  }

  function offerRetry(retryToken) {
    $('cancelled').hidden = false;
    $('cancelled').focus();
    status('');
    $('retry').addEventListener('click', function () {
      $('retry').disabled = true;
      api('POST', '/group-shoot', { action: 'retryCheckout', retryToken: retryToken, returnUrl: location.origin + location.pathname }).then(function (answer) {
        if (answer.ok) { location.assign(answer.checkoutUrl); return; }
        $('retry').disabled = false;
        status(MESSAGES[answer.error] || 'Something went wrong. Please try again.');
      });
    });
  }

  if (address.checkout === 'success' && address.statusToken) return awaitPayment(address.statusToken, 0);
  if (address.checkout === 'cancel' && address.retryToken) return offerRetry(address.retryToken);
  if (!token || !tenantSlug) return status('This check-in link is incomplete. Please ask your photographer for the right one.');
  $('checkin').addEventListener('submit', submit);
  $('selfie').addEventListener('change', function () {
    var file = $('selfie').files[0];
    selfieBase64 = null;
    $('selfie-preview').hidden = true;
    if (!file) return;
    readSelfie(file).then(function (dataUrl) {
      selfieBase64 = dataUrl;
      $('selfie-preview').src = dataUrl;
      $('selfie-preview').hidden = false;
    }, function () { showError({ error: 'invalid_selfie' }); });
  });
  api('GET', '/group-shoot/checkin/' + encodeURIComponent(token)).then(function (answer) {
    if (answer.ok) render(answer);
    else status(MESSAGES[answer.error] || 'This check-in page is not available right now.');
  });
})();
