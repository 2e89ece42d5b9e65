/*
 * The check-in form's rules, checked in the browser before anything is sent, so that a
 * participant sees every problem at once. The limits are the server's (checkin-rules.js, written
 * from lib/platform/field-limits.ts); the server stays the authority and its refusal still lands
 * on its field. Pure: no DOM, so test/unit/web/checkin-validation.test.ts holds it to the
 * server's own parser and rules.
 */
(function () {
  'use strict';
  var RULES = window.GROUPSHOOT_RULES;
  var EMAIL = new RegExp(RULES.emailPattern.source, RULES.emailPattern.flags);
  /** A custom number field's text as lib/galleries/rules/custom-fields.ts reads it. */
  var NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

  function blank(value) {
    return value === undefined || value === null || String(value).trim() === '';
  }

  function textProblem(value, limit, required, requiredKey) {
    if (blank(value)) return required ? { key: requiredKey } : null;
    if (String(value).trim().length > limit) return { key: 'tooLong', values: { max: limit } };
    return null;
  }

  function formFieldProblem(field) {
    if (blank(field.value))
      return field.required ? { key: field.type === 'select' ? 'optionRequired' : 'fieldRequired' } : null;
    if (field.type === 'number') return NUMBER_TEXT.test(String(field.value).trim()) ? null : { key: 'notNumber' };
    if (field.type === 'select') {
      return (field.options || []).some(function (option) {
        return option.value === field.value;
      })
        ? null
        : { key: 'optionRequired' };
    }
    var limit = field.key.indexOf('custom-') === 0 ? RULES.customTextLimits[field.type] : RULES.textLimits[field.key];
    return textProblem(field.value, limit, false);
  }

  /**
   * Every problem of a filled-in form, in the form's order: `{ field, key, values }`, where
   * `field` is the member (or form-field key) the server would name and `key` the message.
   * `form`: name, email, formFields (each with its value), daysOffered and shootingDayId,
   * termsNeeded and termsAccepted, orderNotes, consentRequired and consentGiven, selfieRequired
   * and hasSelfie.
   */
  function validateCheckin(form) {
    var problems = [];
    var add = function (field, problem) {
      if (problem) problems.push({ field: field, key: problem.key, values: problem.values });
    };
    add('name', textProblem(form.name, RULES.textLimits.name, true, 'nameRequired'));
    var emailProblem = textProblem(form.email, RULES.textLimits.email, true, 'emailRequired');
    if (!emailProblem && !EMAIL.test(String(form.email).trim())) emailProblem = { key: 'notEmail' };
    add('email', emailProblem);
    (form.formFields || []).forEach(function (field) {
      add(field.key, formFieldProblem(field));
    });
    if (form.daysOffered && blank(form.shootingDayId)) add('shootingDayId', { key: 'pickDay' });
    if (form.termsNeeded && form.termsAccepted !== true) add('termsAccepted', { key: 'termsRequired' });
    add('orderNotes', textProblem(form.orderNotes, RULES.textLimits.orderNotes, false));
    if (form.selfieRequired && !form.hasSelfie) add('selfieBase64', { key: 'selfieRequired' });
    if (form.consentRequired && form.consentGiven !== true) add('consentGiven', { key: 'acceptConsent' });
    return problems;
  }

  /** The photo-link form's one field. */
  function validateEmail(email) {
    if (blank(email)) return 'photosEmailRequired';
    var trimmed = String(email).trim();
    return trimmed.length > RULES.textLimits.email || !EMAIL.test(trimmed) ? 'notEmail' : null;
  }

  window.GROUPSHOOT_VALIDATION = { validateCheckin: validateCheckin, validateEmail: validateEmail };
})();
