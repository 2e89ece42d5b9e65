/*
 * The check-in form's messages next to their fields: each linked to its inputs
 * (aria-describedby beside any hint, aria-invalid), every problem at once with the focus on the
 * first, and a refusal of the server on the field it names. Used by checkin-form.js.
 */
(function () {
  'use strict';
  var page = window.GROUPSHOOT_PAGE;
  var i18n = window.GROUPSHOOT_I18N;
  var $ = function (id) {
    return document.getElementById(id);
  };

  /** Which field a server refusal belongs next to (invalid_field and invalid_custom_field name theirs). */
  var FIELD_OF = {
    name_required: 'name',
    email_required: 'email',
    email_domain_not_allowed: 'email',
    not_on_guest_list: 'email',
    invitation_required: 'email',
    email_checkin_limit: 'email',
    consent_required: 'consentGiven',
    selfie_required: 'selfieBase64',
    invalid_selfie: 'selfieBase64',
    selfie_too_large: 'selfieBase64',
    invalid_shooting_day: 'shootingDayId',
    shooting_day_full: 'shootingDayId',
    package_not_found: 'selectedPackageId',
    terms_not_accepted: 'termsAccepted',
    payment_access_not_approved: 'selectedPackageId',
    connect_not_ready_for_payments: 'selectedPackageId',
    package_amount_exceeds_limit: 'selectedPackageId',
  };

  /** The inputs a field's message describes: the input itself, or every radio of a group. */
  function inputsOf(field) {
    var own = $(field);
    if (own) return [own];
    if (field === 'selfieBase64') return [$('selfie')];
    return Array.prototype.slice.call(document.querySelectorAll('input[name="' + field + '"]'));
  }

  /** Links (or unlinks) a field's error message to its inputs: aria-describedby beside any hint, and aria-invalid. */
  function describe(input, errorId, invalid) {
    var ids = (input.getAttribute('aria-describedby') || '').split(' ').filter(function (id) {
      return id && id !== errorId;
    });
    if (invalid) ids.push(errorId);
    if (ids.length) input.setAttribute('aria-describedby', ids.join(' '));
    else input.removeAttribute('aria-describedby');
    if (invalid) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  /** A radio group's inputs, once rendered again, keep the link to a message shown. */
  function describeGroup(field) {
    var shown = !$(field + '-error').hidden;
    inputsOf(field).forEach(function (input) {
      describe(input, field + '-error', shown);
    });
  }

  function clearErrors() {
    document.querySelectorAll('#checkin .error').forEach(function (node) {
      node.hidden = true;
      node.textContent = '';
      delete node.dataset.i18n;
      if (node.id !== 'form-error')
        inputsOf(node.id.replace(/-error$/, '')).forEach(function (input) {
          if (input) describe(input, node.id, false);
        });
    });
  }

  /** Shows a message next to its field (or above the form, for one that has none); the element focus goes to. */
  function showProblem(field, key, values) {
    var target = field && $(field + '-error');
    if (!target) target = $('form-error');
    i18n.setText(target, key, values);
    target.hidden = false;
    if (target.id === 'form-error') {
      target.setAttribute('tabindex', '-1');
      return target;
    }
    var inputs = inputsOf(field).filter(Boolean);
    inputs.forEach(function (input) {
      describe(input, target.id, true);
    });
    var focusable = inputs.filter(function (input) {
      return !input.disabled;
    })[0];
    if (focusable) return focusable;
    target.setAttribute('tabindex', '-1');
    return target;
  }

  /** Every problem at once, each next to its field; focus on the first. */
  function showProblems(problems) {
    var targets = problems.map(function (problem) {
      return showProblem(problem.field, problem.key, problem.values);
    });
    targets[0].focus();
  }

  function showServerError(answer) {
    var field = FIELD_OF[answer.error] || answer.field || answer.key;
    var key =
      answer.error === 'invalid_field' || answer.error === 'invalid_custom_field'
        ? 'checkEntry'
        : page.errorMessageKey(answer.error);
    showProblem(field, key).focus();
  }

  window.GROUPSHOOT_FIELD_ERRORS = {
    describeGroup: describeGroup,
    clearErrors: clearErrors,
    showProblem: showProblem,
    showProblems: showProblems,
    showServerError: showServerError,
  };
})();
