/*
 * The check-in form of the reference page: rendered from the check-in info, checked in the
 * browser with the server's rules (checkin-validation.js) so that every problem shows at once
 * next to its field, then sent as submitCheckin. The server's refusal still lands on its field;
 * a day that filled up meanwhile is shown full, with everything else the participant entered
 * kept. Availability is fetched again whenever the page regains focus.
 */
(function () {
  'use strict';
  var page = window.GROUPSHOOT_PAGE;
  var i18n = window.GROUPSHOOT_I18N;
  var validation = window.GROUPSHOOT_VALIDATION;
  var fieldErrors = window.GROUPSHOOT_FIELD_ERRORS;
  var $ = function (id) {
    return document.getElementById(id);
  };
  var element = page.element;
  var MAX_SELFIE_BYTES = window.GROUPSHOOT_RULES.maxSelfieBytes;
  /** Availability is fetched again on focus at most this often. */
  var REFRESH_INTERVAL_MS = 5000;
  var info = null;
  var selfieBase64 = null;
  var refreshedAt = 0;

  /**
   * `#invitation/<token>`: the check-in invitation an invited participant followed from their
   * email (docs/checkin-page.md#invitations), sent with the check-in. Out of the address bar at
   * once, as the other tokens; this tab keeps it for a reload.
   */
  var invitation = (function () {
    var KEY = 'groupshoot-invitation';
    var match = /^#invitation\/([A-Za-z0-9_.-]+)$/.exec(location.hash);
    if (!match) {
      try {
        return sessionStorage.getItem(KEY) || undefined;
      } catch (e) {
        return undefined;
      }
    }
    try {
      sessionStorage.setItem(KEY, match[1]);
    } catch (e) {
      /* storage off: a reload asks for a new link */
    }
    history.replaceState(history.state, '', location.pathname + location.search);
    return match[1];
  })();

  /** Refusals about a day: the days are fetched again before the message shows. */
  var DAY_REFUSALS = ['shooting_day_full', 'invalid_shooting_day'];

  function renderFormFields(fields) {
    var container = $('form-fields');
    container.textContent = '';
    fields.forEach(function (field) {
      var wrapper = element('div', { class: 'field' });
      var label = element('label', { for: field.key }, field.label + ' ');
      if (field.required) label.appendChild(element('span', { class: 'required', 'aria-hidden': 'true' }, '*'));
      var input;
      if (field.type === 'select') {
        input = element('select', { id: field.key });
        var choose = element('option', { value: '' });
        i18n.setText(choose, 'choose');
        input.appendChild(choose);
        field.options.forEach(function (option) {
          input.appendChild(element('option', { value: option.value }, option.label));
        });
      } else if (field.type === 'textarea') {
        input = element('textarea', { id: field.key });
      } else {
        input = element('input', {
          id: field.key,
          type: 'text',
          inputmode: field.type === 'number' ? 'decimal' : 'text',
        });
      }
      if (field.required) input.setAttribute('required', '');
      input.dataset.formField = field.key.indexOf('custom-') === 0 ? 'custom' : 'builtIn';
      wrapper.appendChild(label);
      wrapper.appendChild(input);
      wrapper.appendChild(element('p', { class: 'error', id: field.key + '-error', hidden: '' }));
      container.appendChild(wrapper);
    });
  }

  /** One radio choice: its label, then parts that each stay on one line (a time range never breaks in two). */
  function choice(name, value, parts) {
    var label = element('label', { class: 'choice' });
    label.appendChild(element('input', { type: 'radio', name: name, value: value }));
    var text = element('span', { class: 'choice-text' });
    parts
      .filter(function (part) {
        return part.text;
      })
      .forEach(function (part, index) {
        // A space between the parts, for the name a screen reader reads and for copying.
        if (index > 0) text.appendChild(document.createTextNode(' '));
        text.appendChild(element('span', { class: part.className || '' }, part.text));
      });
    label.appendChild(text);
    return label;
  }

  /** The days with their weekday, date and time in the page's language; a full day greyed and disabled. The choice is kept. */
  function renderDays() {
    var days = info.shootingDays || [];
    $('days-field').hidden = !(info.showShootingDaySelector && days.length);
    if ($('days-field').hidden) return;
    var chosen = selectedValue('shootingDayId');
    var container = $('days');
    container.textContent = '';
    days.forEach(function (day) {
      var full = day.spotsRemaining === 0;
      var note =
        day.spotsRemaining === undefined
          ? ''
          : full
            ? i18n.t('dayFull')
            : i18n.t('spotsLeft', { count: day.spotsRemaining });
      var label = choice('shootingDayId', day.id, [
        { text: day.label, className: 'choice-label' },
        { text: i18n.dayDate(day.date) },
        { text: i18n.timeRange(day.startTime, day.endTime) },
        { text: note, className: 'note' },
      ]);
      var input = label.querySelector('input');
      input.disabled = full;
      input.checked = day.id === chosen;
      if (full) label.classList.add('full');
      container.appendChild(label);
    });
    fieldErrors.describeGroup('shootingDayId');
  }

  function renderPackages() {
    var packages = info.packages || [];
    $('packages-field').hidden = packages.length === 0;
    $('orderNotes-field').hidden = packages.length === 0;
    var chosen = selectedValue('selectedPackageId');
    var container = $('packages');
    container.textContent = '';
    packages.forEach(function (pkg) {
      var label = choice('selectedPackageId', pkg.id, [
        { text: pkg.name, className: 'choice-label' },
        { text: pkg.price ? i18n.money(pkg.price, pkg.currency) : i18n.t('included'), className: 'note' },
      ]);
      label.querySelector('input').checked = pkg.id === chosen;
      container.appendChild(label);
    });
    fieldErrors.describeGroup('selectedPackageId');
  }

  function chosenPackage() {
    var id = selectedValue('selectedPackageId');
    return (info.packages || []).filter(function (pkg) {
      return pkg.id === id;
    })[0];
  }

  function chosenDay() {
    var id = selectedValue('shootingDayId');
    return (info.shootingDays || []).filter(function (day) {
      return day.id === id;
    })[0];
  }

  /**
   * Writes the studio's consent text into `node` in the page's language, else the gallery's text
   * in its own language (the answer says so); the default sentence where the studio wrote none.
   * The My photos view's list of consents writes it the same way.
   */
  page.writeConsentText = function (node) {
    var loaded = page.info || {};
    var texts = loaded.consentTexts || {};
    var translated = texts[i18n.language()];
    var text = translated || loaded.consentText;
    if (text) {
      node.textContent = text;
      delete node.dataset.i18n;
    } else i18n.setText(node, 'consentDefault');
    var fallback = !translated && Boolean(loaded.consentText) && (loaded.defaultLanguage || 'en') !== i18n.language();
    if (fallback) node.setAttribute('lang', loaded.defaultLanguage || 'en');
    else node.removeAttribute('lang');
    return fallback;
  };

  /** The consent in the page's language, else the gallery's text with a note that says so (in the text's own language). */
  function renderConsent() {
    var fallback = page.writeConsentText($('consent-text'));
    $('consent-fallback').hidden = !fallback;
    $('consentGiven').setAttribute('aria-describedby', fallback ? 'consent-fallback' : '');
  }

  /** Tells participants which address to use: the gallery's domains, the one the studio was given. */
  function renderEmailHint() {
    var named = (info.allowedEmailDomains || []).map(function (domain) {
      return domain.indexOf('*.') === 0 ? i18n.t('anySubdomainOf', { domain: domain.slice(2) }) : domain;
    });
    var hints = [];
    if (named.length) hints.push(i18n.t('emailHintDomains', { domains: i18n.alternatives(named) }));
    if (info.checkinMode === 'importedOnly') hints.push(i18n.t('emailHintImported'));
    $('email-hint').textContent = hints.join(' ');
    $('email-hint').hidden = hints.length === 0;
  }

  function renderTerms() {
    var pkg = chosenPackage();
    $('terms-field').hidden = !(pkg && pkg.requiresPayment);
    $('terms-link-row').hidden = !info.termsUrl;
    if (info.termsUrl) $('terms-link').href = info.termsUrl;
  }

  function render(loaded) {
    info = loaded;
    refreshedAt = Date.now();
    i18n.useGalleryDefault(info.defaultLanguage);
    // The My photos view shows the ways in this gallery takes, and its consents in the gallery's words.
    page.photoAccess = info.photoAccess;
    page.info = info;
    document.dispatchEvent(new CustomEvent('groupshoot:photo-access'));
    page.showGallery(info.galleryName, info.branding);
    renderFormFields(info.formFields || []);
    renderTexts();
    if (info.selfieEnabled) {
      $('selfie-field').hidden = false;
      $('selfie-required').hidden = !info.selfieRequired;
    }
    var consents = info.granularConsents || {};
    $('consentGiven-field').hidden = !info.consentRequired;
    $('faceConsent-field').hidden = !consents.face;
    $('notificationConsent-field').hidden = !consents.notification;
    $('hrExportConsent-field').hidden = !consents.hrExport;
    $('consents-field').hidden = !(info.consentRequired || consents.face || consents.notification || consents.hrExport);
    $('my-photos-link-row').hidden = false;
    $('checkin').hidden = false;
    page.status('');
  }

  /** Everything of the form written from the check-in info in the page's language (again on a change of language). */
  function renderTexts() {
    renderDays();
    renderPackages();
    renderTerms();
    renderEmailHint();
    renderConsent();
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

  /** A day refused (full, or no longer offered): the days as they are now, the message by them, and focus on it, not on another day. */
  function showDayRefusal(answer) {
    fieldErrors.showProblem('shootingDayId', page.errorMessageKey(answer.error));
    $('shootingDayId-error').setAttribute('tabindex', '-1');
    $('shootingDayId-error').focus();
  }

  function formFieldValues() {
    return (info.formFields || []).map(function (field) {
      return {
        key: field.key,
        type: field.type,
        required: field.required,
        options: field.options,
        value: $(field.key).value,
      };
    });
  }

  /** The form as checkin-validation.js reads it. */
  function snapshot() {
    var pkg = chosenPackage();
    return {
      name: $('name').value,
      email: $('email').value,
      formFields: formFieldValues(),
      daysOffered:
        !$('days-field').hidden && document.querySelectorAll('input[name="shootingDayId"]:not(:disabled)').length > 0,
      shootingDayId: selectedValue('shootingDayId'),
      termsNeeded: Boolean(pkg && pkg.requiresPayment),
      termsAccepted: $('termsAccepted').checked,
      orderNotes: $('orderNotes').value,
      consentRequired: !$('consentGiven-field').hidden,
      consentGiven: $('consentGiven').checked,
      selfieRequired: !$('selfie-field').hidden && !$('selfie-required').hidden,
      hasSelfie: Boolean(selfieBase64),
    };
  }

  function collect() {
    var body = {
      action: 'submitCheckin',
      token: page.token,
      language: i18n.language(),
      name: $('name').value,
      email: $('email').value,
      shootingDayId: selectedValue('shootingDayId'),
      selectedPackageId: selectedValue('selectedPackageId'),
      termsAccepted: $('termsAccepted').checked,
      orderNotes: $('orderNotes').value || undefined,
      selfieBase64: selfieBase64 || undefined,
      invitation: invitation,
      returnUrl: location.origin + location.pathname,
      customFields: {},
    };
    ['consentGiven', 'faceConsent', 'notificationConsent', 'hrExportConsent'].forEach(function (id) {
      if (!$(id + '-field').hidden) body[id] = $(id).checked;
    });
    formFieldValues().forEach(function (field) {
      if (field.value === '') return;
      if (field.key.indexOf('custom-') === 0) body.customFields[field.key] = field.value;
      else body[field.key] = field.value;
    });
    return body;
  }

  /** What the success view recaps. */
  function recapOf(name) {
    var pkg = chosenPackage();
    return { name: name, day: chosenDay(), packageName: pkg && pkg.name };
  }

  /** The check-in info again: the days' availability now; a chosen day that filled up is let go. */
  function refreshAvailability() {
    refreshedAt = Date.now();
    return page
      .api('GET', '/group-shoot/checkin/' + encodeURIComponent(page.token), undefined, 0)
      .then(function (answer) {
        if (!answer.ok) return;
        info.shootingDays = answer.shootingDays;
        var chosen = chosenDay();
        renderDays();
        if (chosen && chosen.spotsRemaining === 0)
          document.querySelectorAll('input[name="shootingDayId"]').forEach(function (input) {
            input.checked = false;
          });
      });
  }

  function refreshOnReturn() {
    if (document.visibilityState !== 'visible' || !info || $('checkin').hidden || $('submit').disabled) return;
    if (Date.now() - refreshedAt >= REFRESH_INTERVAL_MS) refreshAvailability();
  }

  function submit(event) {
    event.preventDefault();
    fieldErrors.clearErrors();
    var problems = validation.validateCheckin(snapshot());
    if (problems.length) return fieldErrors.showProblems(problems);
    $('submit').disabled = true;
    page.api('POST', '/group-shoot', collect(), undefined, $('submit-wait')).then(function (answer) {
      $('submit').disabled = false;
      if (answer.ok && answer.checkoutUrl) {
        page.keepForReturn(recapOf($('name').value.trim()), info.branding);
        page.status('redirecting');
        location.assign(answer.checkoutUrl);
        return;
      }
      if (answer.ok) return page.showCode(answer.code, recapOf(answer.name));
      if (DAY_REFUSALS.indexOf(answer.error) >= 0)
        return refreshAvailability().then(function () {
          showDayRefusal(answer);
        });
      fieldErrors.showServerError(answer);
    });
  }

  page.loadForm = function () {
    $('checkin').addEventListener('submit', submit);
    $('packages').addEventListener('change', renderTerms);
    $('selfie').addEventListener('change', function () {
      var file = $('selfie').files[0];
      selfieBase64 = null;
      $('selfie-preview').hidden = true;
      if (!file) return;
      readSelfie(file).then(
        function (dataUrl) {
          selfieBase64 = dataUrl;
          $('selfie-preview').src = dataUrl;
          $('selfie-preview').hidden = false;
        },
        function () {
          fieldErrors.showProblem('selfieBase64', 'error.invalid_selfie').focus();
        },
      );
    });
    window.addEventListener('focus', refreshOnReturn);
    document.addEventListener('visibilitychange', refreshOnReturn);
    i18n.onChange(function () {
      if (info) renderTexts();
    });
    page.api('GET', '/group-shoot/checkin/' + encodeURIComponent(page.token)).then(function (answer) {
      if (answer.ok) render(answer);
      else
        page.status(
          answer.error === 'network' || answer.error === 'internal_error'
            ? 'pageUnavailable'
            : page.errorMessageKey(answer.error),
        );
    });
  };
})();
