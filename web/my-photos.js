/*
 * The reference page's My photos view: "Email me a link" (sendPhotoLink), the photos of a photo
 * link (photosByLink), and, where the gallery takes it, the access code with the email (or
 * employee ID) through myPhotos. Shown for the address fragment `#my-photos`,
 * `#my-photos/link/<photo link>` to open a link's photos, or `#my-photos/<code>` to open it with
 * the code filled in (a link or code leaves the address bar at once). Uses the gallery token,
 * tenant, API call and gallery settings of checkin.js (window.GROUPSHOOT_PAGE).
 */
(function () {
  'use strict';
  var page = window.GROUPSHOOT_PAGE;
  if (!page) return;
  var $ = function (id) { return document.getElementById(id); };
  var VIEW = 'my-photos';
  var CODE_LENGTH = 4;
  var photos = [];
  var shown = -1;

  /** What participants read; the same sentence for every wrong pair, as the API gives one answer for all. */
  var MESSAGES = {
    photos_not_found: 'We found no photos for this code with this email address or employee ID. Please check both and try again.',
    photo_link_invalid: 'This link has expired or is not valid. Enter your email address and we send you a new one.',
    photo_lookup_by_code_disabled: 'This gallery opens photos by a link we email you. Please use "Email me a link".',
    email: 'Please enter the email address you checked in with.',
    linkSent: 'If a participant of this gallery has this email address, we have sent them a link to their photos. Please check your inbox, and the spam folder too. The link works for 7 days.',
    pairLinkSent: 'If this code and email belong to a participant, we have sent a link to their photos to that email address. Please check your inbox.',
    code: 'Please enter the 4-character access code from your check-in.',
    factor: 'Please enter the email address you checked in with, or your employee ID.',
    gallery_not_found: 'This link is not valid. Please ask your photographer for the right one.',
    not_a_groupshoot_gallery: 'This link is not valid. Please ask your photographer for the right one.',
    invalid_tenant: 'This page is not set up correctly.',
    cdn_signing_unavailable: 'Your photos cannot be shown right now. Please try again in a moment.',
    network: 'The service cannot be reached. Please check your connection and try again.',
  };

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
    if (!match) { show(false); return; }
    if (match[1] !== undefined) {
      var code = '';
      try { code = decodeURIComponent(match[1]); } catch (e) { /* not a code */ }
      $('photos-code').value = code.trim().toUpperCase().slice(0, CODE_LENGTH);
      // The code is half of what opens the photos: not in the history entry, a shared address or a screenshot.
      history.replaceState(history.state, '', location.pathname + location.search + '#' + VIEW);
    }
    show(true);
  }

  function show(photosView) {
    document.querySelector('main').dataset.view = photosView ? 'photos' : 'checkin';
    $('my-photos').hidden = !photosView;
    if (!photosView) return;
    document.title = 'My photos';
    if (!page.token || !page.tenantSlug) {
      showError('This link is incomplete. Please ask your photographer for the right one.');
      $('photos-submit').disabled = true;
      $('link-submit').disabled = true;
    }
    if (!$('photos-result').hidden) return;
    var codeGiven = $('photos-code').value.length === CODE_LENGTH;
    if (codeGiven && !$('photos-form').hidden) $($('photos-no-email').checked ? 'photos-employeeId' : 'photos-email').focus();
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

  function linkSent(text) {
    $('link-sent').textContent = text;
    $('link-sent').hidden = false;
  }

  function askForLink(event) {
    event.preventDefault();
    clearError();
    $('link-sent').hidden = true;
    var email = $('link-email').value.trim();
    if (email === '' || email.indexOf('@') < 1) return showError(MESSAGES.email, $('link-email'));
    $('link-submit').disabled = true;
    page.status('Sending…');
    page.api('POST', '/group-shoot', { action: 'sendPhotoLink', token: page.token, email: email }, 0).then(function (answer) {
      $('link-submit').disabled = false;
      page.status('');
      if (answer.ok) return linkSent(MESSAGES.linkSent);
      if (answer.error === 'rate_limit_exceeded') return showError(waitMessage(answer.retryAfter));
      if (answer.error === 'invalid_field' || answer.error === 'email_required') return showError(MESSAGES.email, $('link-email'));
      showError(MESSAGES[answer.error] || 'Something went wrong. Please try again.');
    });
  }

  function openLink(photoLink) {
    clearError();
    page.status('Opening your photos…');
    page.api('POST', '/group-shoot', { action: 'photosByLink', token: page.token, photoLink: photoLink }, 0).then(function (answer) {
      page.status('');
      if (answer.ok) return showPhotos(answer);
      if (answer.error === 'rate_limit_exceeded') return showError(waitMessage(answer.retryAfter));
      showError(MESSAGES[answer.error] || 'Something went wrong. Please try again.', answer.error === 'photo_link_invalid' ? $('link-email') : undefined);
    });
  }

  function showError(text, field) {
    $('photos-error').textContent = text;
    $('photos-error').hidden = false;
    if (field) { field.setAttribute('aria-invalid', 'true'); field.focus(); }
  }

  function clearError() {
    $('photos-error').hidden = true;
    $('photos-error').textContent = '';
    ['photos-code', 'photos-email', 'photos-employeeId', 'link-email'].forEach(function (id) { $(id).removeAttribute('aria-invalid'); });
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
    if (code.length !== CODE_LENGTH) return showError(MESSAGES.code, $('photos-code'));
    if (factorInput.value.trim() === '') return showError(MESSAGES.factor, factorInput);
    var body = { action: 'myPhotos', token: page.token, code: code };
    body[byEmployeeId ? 'employeeId' : 'email'] = factorInput.value;
    $('photos-submit').disabled = true;
    page.status('Looking for your photos…');
    // A refusal of the attempt limits is shown with its wait, not waited out: it can be long.
    page.api('POST', '/group-shoot', body, 0).then(function (answer) {
      $('photos-submit').disabled = false;
      page.status('');
      if (answer.ok && answer.photoLinkRequested) return linkSent(MESSAGES.pairLinkSent);
      if (answer.ok) return showPhotos(answer);
      if (answer.error === 'rate_limit_exceeded') return showError(waitMessage(answer.retryAfter));
      if (answer.error === 'invalid_field') return showError(answer.field === 'code' ? MESSAGES.code : MESSAGES.photos_not_found, answer.field === 'code' ? $('photos-code') : factorInput);
      showError(MESSAGES[answer.error] || 'Something went wrong. Please try again.');
    });
  }

  function waitMessage(seconds) {
    var minutes = Math.ceil((seconds || 60) / 60);
    return 'Too many attempts. Please try again in ' + (minutes <= 1 ? 'a minute.' : minutes + ' minutes.');
  }

  function showPhotos(answer) {
    photos = answer.photos;
    var grid = $('photos-grid');
    grid.textContent = '';
    $('photos-heading').textContent = photos.length === 0
      ? answer.name + ', your photos are not ready yet. Please look again later.'
      : answer.name + ', your ' + (photos.length === 1 ? 'photo' : photos.length + ' photos') + ':';
    photos.forEach(function (photo, index) {
      var item = page.element('li');
      var button = page.element('button', { type: 'button', class: 'thumbnail', 'aria-label': 'Open ' + photo.fileName });
      var image = page.element('img', { src: photo.url, alt: photo.fileName, loading: 'lazy' });
      if (photo.width && photo.height) { image.width = photo.width; image.height = photo.height; }
      button.appendChild(image);
      button.addEventListener('click', function () { openViewer(index); });
      item.appendChild(button);
      grid.appendChild(item);
    });
    $('photos-form').hidden = true;
    $('link-form').hidden = true;
    $('link-sent').hidden = true;
    $('photos-result').hidden = false;
    $('photos-heading').setAttribute('tabindex', '-1');
    $('photos-heading').focus();
  }

  function openViewer(index) {
    shown = (index + photos.length) % photos.length;
    var photo = photos[shown];
    $('viewer-title').textContent = photo.fileName + ' (' + (shown + 1) + ' of ' + photos.length + ')';
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
    fetch(photo.url).then(function (response) {
      if (!response.ok) throw new Error('not served');
      return response.blob();
    }).then(function (blob) {
      var link = page.element('a', { href: URL.createObjectURL(blob), download: photo.fileName });
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
    }).catch(function () { window.open(photo.url, '_blank', 'noopener'); });
  }

  $('photos-form').addEventListener('submit', submit);
  $('link-form').addEventListener('submit', askForLink);
  document.addEventListener('groupshoot:photo-access', applyAccess);
  $('photos-no-email').addEventListener('change', function () { useEmployeeId($('photos-no-email').checked); });
  $('photos-again').addEventListener('click', function () {
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
  $('viewer-close').addEventListener('click', function () { $('photo-viewer').close(); });
  $('viewer-previous').addEventListener('click', function () { openViewer(shown - 1); });
  $('viewer-next').addEventListener('click', function () { openViewer(shown + 1); });
  $('viewer-download').addEventListener('click', download);
  window.addEventListener('hashchange', route);
  applyAccess();
  route();
})();
