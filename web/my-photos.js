/*
 * The reference page's My photos view: "Email me a link" (sendPhotoLink), the photos of a photo
 * link (photosByLink), and, where the gallery takes it, the access code with the email (or
 * employee ID) through myPhotos; each photo can be picked as the participant's portrait
 * (pickPhoto, with the link or code the view was opened with), and a participant who gave face
 * consent can withdraw it (withdrawFaceConsent, with the same). Below the photos, the participant's
 * consents as the gallery asks for them (manageConsents, with the same): each given one withdrawn
 * with one button, a withdrawn one given again where the gallery still asks for it, the studio's own
 * explained (only erasure ends it). Shown for the address fragment `#my-photos`,
 * `#my-photos/link/<photo link>` to open a link's photos, or `#my-photos/<code>` to open it with
 * the code filled in (a link or code leaves the address bar at once). Uses the gallery token,
 * tenant, API call and gallery settings of checkin.js (window.GROUPSHOOT_PAGE).
 */
(function () {
  'use strict';
  var page = window.GROUPSHOOT_PAGE;
  if (!page) return;
  var $ = function (id) {
    return document.getElementById(id);
  };
  var VIEW = 'my-photos';
  var CODE_LENGTH = 4;
  var photos = [];
  var shown = -1;
  /** The consents the list shows (manageConsents' answer), for a change of language. */
  var consents = null;
  /** What opened the photos shown, sent again with a pick: `{ photoLink }` or `{ code, email | employeeId }`. */
  var proof = null;

  var i18n = window.GROUPSHOOT_I18N;

  /** `#my-photos`, `#my-photos/link/<photo link>` or `#my-photos/<code>`: the view, and the link or code it brings, if any. */
  function route() {
    var link = /^#my-photos\/link\/([A-Za-z0-9_.-]+)$/.exec(location.hash);
    if (link) {
      // The link opens the photos: not in the history entry, a shared address or a screenshot.
      history.replaceState(history.state, '', location.pathname + location.search + '#' + VIEW);
      show(true);
      openLink(link[1]);
      return;
    }
    var match = /^#my-photos(?:\/([^/?#]*))?$/.exec(location.hash);
    if (!match) {
      show(false);
      return;
    }
    if (match[1] !== undefined) {
      var code = '';
      try {
        code = decodeURIComponent(match[1]);
      } catch (e) {
        /* not a code */
      }
      $('photos-code').value = code.trim().toUpperCase().slice(0, CODE_LENGTH);
      // The code is half of what opens the photos: not in the history entry, a shared address or a screenshot.
      history.replaceState(history.state, '', location.pathname + location.search + '#' + VIEW);
    }
    show(true);
  }

  function show(photosView) {
    document.querySelector('main').dataset.view = photosView ? 'photos' : 'checkin';
    $('my-photos').hidden = !photosView;
    if (!photosView) {
      page.updateDocumentTitle();
      return;
    }
    page.updateDocumentTitle();
    if (!page.token || !page.tenantSlug) {
      showError('photosLinkIncomplete');
      $('photos-submit').disabled = true;
      $('link-submit').disabled = true;
    }
    if (!$('photos-result').hidden) return;
    var codeGiven = $('photos-code').value.length === CODE_LENGTH;
    if (codeGiven && !$('photos-form').hidden)
      $($('photos-no-email').checked ? 'photos-employeeId' : 'photos-email').focus();
    else $('link-email').focus();
  }

  /** The ways in by code the gallery takes (check-in info): the code form only where one is on. */
  function applyAccess() {
    var access = page.photoAccess || { codeAndEmail: false, codeAndEmployeeId: false };
    $('photos-form').hidden = !(access.codeAndEmail || access.codeAndEmployeeId) || !$('photos-result').hidden;
    $('photos-no-email-field').hidden = !(access.codeAndEmail && access.codeAndEmployeeId);
    if (!access.codeAndEmail && access.codeAndEmployeeId) $('photos-no-email').checked = true;
    if (access.codeAndEmail && !access.codeAndEmployeeId) $('photos-no-email').checked = false;
    useEmployeeId($('photos-no-email').checked);
  }

  function linkSent(key) {
    i18n.setText($('link-sent'), key);
    $('link-sent').hidden = false;
  }

  function askForLink(event) {
    event.preventDefault();
    clearError();
    $('link-sent').hidden = true;
    var email = $('link-email').value.trim();
    var problem = window.GROUPSHOOT_VALIDATION.validateEmail(email);
    if (problem) return showError(problem, undefined, $('link-email'));
    $('link-submit').disabled = true;
    page.status('sending');
    page
      .api(
        'POST',
        '/group-shoot',
        { action: 'sendPhotoLink', token: page.token, email: email, language: i18n.language() },
        0,
      )
      .then(function (answer) {
        $('link-submit').disabled = false;
        page.status('');
        if (answer.ok) return linkSent('linkSent');
        if (answer.error === 'rate_limit_exceeded') return showWait(answer.retryAfter);
        if (answer.error === 'invalid_field' || answer.error === 'email_required')
          return showError('photosEmailRequired', undefined, $('link-email'));
        showError(page.errorMessageKey(answer.error));
      });
  }

  function openLink(photoLink) {
    clearError();
    page.status('openingPhotos');
    page
      .api('POST', '/group-shoot', { action: 'photosByLink', token: page.token, photoLink: photoLink }, 0)
      .then(function (answer) {
        page.status('');
        if (answer.ok) return showPhotos(answer, { photoLink: photoLink });
        if (answer.error === 'rate_limit_exceeded') return showWait(answer.retryAfter);
        showError(
          page.errorMessageKey(answer.error),
          undefined,
          answer.error === 'photo_link_invalid' ? $('link-email') : undefined,
        );
      });
  }

  /** The view's one message, above its forms, linked to the field it concerns (aria-describedby). */
  function showError(key, values, field) {
    i18n.setText($('photos-error'), key, values);
    $('photos-error').hidden = false;
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', ((field.dataset.hint || '') + ' photos-error').trim());
      field.focus();
    }
  }

  function clearError() {
    $('photos-error').hidden = true;
    $('photos-error').textContent = '';
    ['photos-code', 'photos-email', 'photos-employeeId', 'link-email'].forEach(function (id) {
      $(id).removeAttribute('aria-invalid');
      if ($(id).dataset.hint) $(id).setAttribute('aria-describedby', $(id).dataset.hint);
      else $(id).removeAttribute('aria-describedby');
    });
  }

  function useEmployeeId(yes) {
    $('photos-email-field').hidden = yes;
    $('photos-employeeId-field').hidden = !yes;
  }

  function submit(event) {
    event.preventDefault();
    clearError();
    var code = $('photos-code').value.trim().toUpperCase();
    var byEmployeeId = $('photos-no-email').checked;
    var factorInput = byEmployeeId ? $('photos-employeeId') : $('photos-email');
    if (code.length !== CODE_LENGTH) return showError('photosCodeRequired', undefined, $('photos-code'));
    if (factorInput.value.trim() === '') return showError('photosFactorRequired', undefined, factorInput);
    var body = { action: 'myPhotos', token: page.token, code: code };
    body[byEmployeeId ? 'employeeId' : 'email'] = factorInput.value;
    $('photos-submit').disabled = true;
    page.status('lookingForPhotos');
    // A refusal of the attempt limits is shown with its wait, not waited out: it can be long.
    page.api('POST', '/group-shoot', body, 0).then(function (answer) {
      $('photos-submit').disabled = false;
      page.status('');
      if (answer.ok && answer.photoLinkRequested) return linkSent('pairLinkSent');
      if (answer.ok) return showPhotos(answer, { code: body.code, email: body.email, employeeId: body.employeeId });
      if (answer.error === 'rate_limit_exceeded') return showWait(answer.retryAfter);
      if (answer.error === 'invalid_field')
        return showError(
          answer.field === 'code' ? 'photosCodeRequired' : 'error.photos_not_found',
          undefined,
          answer.field === 'code' ? $('photos-code') : factorInput,
        );
      showError(page.errorMessageKey(answer.error));
    });
  }

  function showWait(seconds) {
    showError('tooManyAttempts', { count: Math.max(1, Math.ceil((seconds || 60) / 60)) });
  }

  function showPhotos(answer, openedWith) {
    photos = answer.photos;
    proof = openedWith;
    var grid = $('photos-grid');
    grid.textContent = '';
    if (photos.length === 0) i18n.setText($('photos-heading'), 'photosNotReady', { name: answer.name });
    else i18n.setText($('photos-heading'), 'photosCount', { name: answer.name, count: photos.length });
    photos.forEach(function (photo, index) {
      var item = page.element('li');
      var button = page.element('button', {
        type: 'button',
        class: 'thumbnail',
        'aria-label': i18n.t('openPhoto', { name: photo.fileName }),
      });
      var image = page.element('img', { src: photo.url, alt: photo.fileName, loading: 'lazy' });
      if (photo.width && photo.height) {
        image.width = photo.width;
        image.height = photo.height;
      }
      button.appendChild(image);
      button.addEventListener('click', function () {
        openViewer(index);
      });
      item.appendChild(button);
      // A toggle whose name stays the same; aria-pressed says which photo is the portrait.
      var pick = page.element('button', { type: 'button', class: 'secondary pick', 'data-photo-id': photo.photoId });
      i18n.setText(pick, 'usePortrait');
      pick.addEventListener('click', function () {
        pickPortrait(photo.photoId, pick);
      });
      item.appendChild(pick);
      grid.appendChild(item);
    });
    markPick();
    showFaceConsent(answer.faceConsent === true);
    $('consents').hidden = true;
    loadConsents();
    $('photos-form').hidden = true;
    $('link-form').hidden = true;
    $('link-sent').hidden = true;
    $('photos-result').hidden = false;
    $('photos-heading').setAttribute('tabindex', '-1');
    $('photos-heading').focus();
  }

  /** Shows which photo is the portrait: its button pressed, and the word "Your portrait" under it. */
  function markPick() {
    Array.prototype.forEach.call($('photos-grid').querySelectorAll('button.pick'), function (button) {
      var picked = photos.some(function (photo) {
        return photo.photoId === button.dataset.photoId && photo.picked;
      });
      button.setAttribute('aria-pressed', picked ? 'true' : 'false');
      var badge = button.parentNode.querySelector('.picked-note');
      if (picked && !badge) {
        badge = page.element('p', { class: 'picked-note' });
        i18n.setText(badge, 'portraitPicked');
        button.parentNode.appendChild(badge);
      }
      if (!picked && badge) badge.remove();
    });
  }

  /**
   * A participant's action with what opened the photos (the link, or the code and its second
   * factor): `done` takes an answer that did it; a budget past its end, a wait or a refusal are
   * shown as for every such action.
   */
  function actWithProof(fields, done) {
    var body = { token: page.token };
    Object.keys(fields).forEach(function (name) {
      body[name] = fields[name];
    });
    Object.keys(proof).forEach(function (name) {
      if (proof[name]) body[name] = proof[name];
    });
    return page.api('POST', '/group-shoot', body, 0).then(function (answer) {
      if (done(answer)) return;
      page.status('');
      if (answer.ok && answer.photoLinkRequested) return linkSent('pairLinkSent');
      if (answer.error === 'rate_limit_exceeded') return showWait(answer.retryAfter);
      showError(page.errorMessageKey(answer.error));
    });
  }

  /** pickPhoto; the answer is the photos again, the pick marked. */
  function pickPortrait(photoId, button) {
    if (!proof) return;
    clearError();
    button.disabled = true;
    page.status('savingPortrait');
    actWithProof({ action: 'pickPhoto', photoId: photoId }, function (answer) {
      button.disabled = false;
      if (!(answer.ok && answer.photos)) return false;
      photos = answer.photos;
      markPick();
      page.status('portraitSaved');
      button.focus();
      return true;
    });
  }

  /** The face consent's part of the photos: the control to withdraw it where it is given, its question folded. */
  function showFaceConsent(given) {
    $('face-consent').hidden = !given;
    $('face-withdraw-confirm').hidden = true;
    $('face-withdraw').hidden = false;
    $('face-withdrawn').hidden = true;
  }

  /** The question before a withdrawal: it cannot be undone from the page. */
  function askWithdrawal(yes) {
    $('face-withdraw').hidden = yes;
    $('face-withdraw-confirm').hidden = !yes;
    (yes ? $('face-withdraw-question') : $('face-withdraw')).focus();
  }

  /** withdrawFaceConsent; the answer says the consent is withdrawn. */
  function withdrawFaceConsent() {
    if (!proof) return;
    clearError();
    $('face-withdraw-yes').disabled = true;
    page.status('withdrawingFaceConsent');
    actWithProof({ action: 'withdrawFaceConsent' }, function (answer) {
      $('face-withdraw-yes').disabled = false;
      if (!(answer.ok && answer.faceConsent === false)) return false;
      page.status('');
      $('face-consent').hidden = true;
      i18n.setText($('face-withdrawn'), 'faceConsentWithdrawn');
      $('face-withdrawn').hidden = false;
      $('face-withdrawn').focus();
      loadConsents();
      return true;
    });
  }

  /** manageConsents without a change: the list of the participant's consents. */
  function loadConsents() {
    if (!proof) return;
    actWithProof({ action: 'manageConsents' }, function (answer) {
      if (!(answer.ok && answer.consents)) return false;
      showConsents(answer.consents);
      return true;
    });
  }

  /** The consents the gallery asks for, and those the participant gave or refused before it stopped asking. */
  function showConsents(list) {
    consents = list;
    var shownConsents = list.filter(function (consent) {
      return consent.asked || consent.given !== null;
    });
    var items = shownConsents.map(consentItem);
    $('consents-list').replaceChildren.apply($('consents-list'), items);
    $('consents').hidden = items.length === 0;
  }

  function consentItem(consent) {
    var id = 'consent-' + consent.consent;
    var item = page.element('li', { 'data-consent': consent.consent });
    var label = page.element('p', { id: id + '-label', class: 'consent-label' });
    if (consent.consent === 'consentGiven') page.writeConsentText(label);
    else i18n.setText(label, consent.consent);
    item.appendChild(label);
    var state = page.element('p', { id: id + '-state', class: 'consent-state' });
    var stateKey =
      consent.given === true
        ? 'consentStateGiven'
        : consent.changedAt
          ? 'consentStateWithdrawn'
          : 'consentStateNotGiven';
    if (consent.changedAt)
      i18n.setText(state, 'consentStateSince', {
        state: i18n.t(stateKey),
        date: new Date(consent.changedAt).toLocaleString(i18n.language(), { dateStyle: 'long', timeStyle: 'short' }),
      });
    else i18n.setText(state, stateKey);
    item.appendChild(state);
    if (consent.consent === 'consentGiven') {
      var note = page.element('p', { class: 'hint' });
      i18n.setText(note, 'studioConsentNote');
      item.appendChild(note);
      return item;
    }
    if (consent.consent === 'faceConsent' && consent.withdrawable) {
      var faceNote = page.element('p', { class: 'hint' });
      i18n.setText(faceNote, 'faceConsentListNote');
      item.appendChild(faceNote);
    }
    if (consent.withdrawable || consent.givable) {
      var button = page.element('button', {
        type: 'button',
        class: 'secondary',
        id: id + '-change',
        'aria-describedby': id + '-label ' + id + '-state',
      });
      i18n.setText(button, consent.withdrawable ? 'consentWithdraw' : 'consentGiveAgain');
      button.addEventListener('click', function () {
        changeConsent(consent.consent, !consent.withdrawable, button);
      });
      item.appendChild(button);
    }
    return item;
  }

  /** manageConsents with a change: one click, and the list shows the consent's new state. */
  function changeConsent(name, given, button) {
    if (!proof) return;
    clearError();
    button.disabled = true;
    page.status('savingConsent');
    actWithProof({ action: 'manageConsents', consent: name, given: given }, function (answer) {
      button.disabled = false;
      if (!(answer.ok && answer.consents)) return false;
      showConsents(answer.consents);
      if (name === 'faceConsent') showFaceConsent(false);
      page.status('consentSaved');
      var again = $('consent-' + name + '-change') || $('consent-' + name + '-state');
      if (again) again.focus();
      return true;
    });
  }

  function openViewer(index) {
    shown = (index + photos.length) % photos.length;
    var photo = photos[shown];
    i18n.setText($('viewer-title'), 'viewerTitle', { name: photo.fileName, index: shown + 1, count: photos.length });
    $('viewer-image').src = photo.url;
    $('viewer-image').alt = photo.fileName;
    $('viewer-download').href = photo.url;
    $('viewer-download').setAttribute('download', photo.fileName);
    $('viewer-previous').hidden = $('viewer-next').hidden = photos.length < 2;
    if (!$('photo-viewer').open) $('photo-viewer').showModal();
  }

  /**
   * Saves the photo under its file name: the file is fetched and saved from memory, since a
   * browser ignores `download` on a link to another origin (the photo CDN). Where the fetch is
   * refused, the photo opens in a new tab to be saved from there.
   */
  function download(event) {
    event.preventDefault();
    var photo = photos[shown];
    fetch(photo.url)
      .then(function (response) {
        if (!response.ok) throw new Error('not served');
        return response.blob();
      })
      .then(function (blob) {
        var link = page.element('a', { href: URL.createObjectURL(blob), download: photo.fileName });
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(function () {
          URL.revokeObjectURL(link.href);
        }, 60000);
      })
      .catch(function () {
        window.open(photo.url, '_blank', 'noopener');
      });
  }

  $('photos-form').addEventListener('submit', submit);
  $('link-form').addEventListener('submit', askForLink);
  document.addEventListener('groupshoot:photo-access', applyAccess);
  $('photos-no-email').addEventListener('change', function () {
    useEmployeeId($('photos-no-email').checked);
  });
  $('photos-again').addEventListener('click', function () {
    proof = null;
    $('photos-result').hidden = true;
    $('link-form').hidden = false;
    applyAccess();
    $('link-email').focus();
  });
  $('back-to-checkin').addEventListener('click', function (event) {
    event.preventDefault();
    history.pushState(history.state, '', location.pathname + location.search);
    route();
  });
  $('face-withdraw').addEventListener('click', function () {
    askWithdrawal(true);
  });
  $('face-withdraw-no').addEventListener('click', function () {
    askWithdrawal(false);
  });
  $('face-withdraw-yes').addEventListener('click', withdrawFaceConsent);
  i18n.onChange(function () {
    if (consents && !$('consents').hidden) showConsents(consents);
  });
  $('viewer-close').addEventListener('click', function () {
    $('photo-viewer').close();
  });
  $('viewer-previous').addEventListener('click', function () {
    openViewer(shown - 1);
  });
  $('viewer-next').addEventListener('click', function () {
    openViewer(shown + 1);
  });
  $('viewer-download').addEventListener('click', download);
  window.addEventListener('hashchange', route);
  ['photos-code', 'link-email'].forEach(function (id) {
    $(id).dataset.hint = $(id).getAttribute('aria-describedby');
  });
  applyAccess();
  route();
})();
