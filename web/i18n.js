/*
 * The page's languages (docs/checkin-page.md#languages). The language is the participant's choice
 * in the switcher (kept in localStorage), else the first of the browser's languages
 * (navigator.languages) the page speaks, else the gallery's default (defaultLanguage in the
 * check-in info), else English. Texts come from messages/<language>.js; an element with
 * `data-i18n="key"` shows that message, `data-i18n-attributes="aria-label=key alt=key"` has those
 * attributes translated, and setText keeps an element's key and values so that a change of
 * language rewrites it. Dates, times, prices and lists go through Intl, in the browser's own
 * variant of the language where it has one (en-GB writes 24 h, en-US 12 h).
 */
(function () {
  'use strict';
  var MESSAGES = window.GROUPSHOOT_MESSAGES || {};
  var LANGUAGES = Object.keys(MESSAGES);
  var STORAGE_KEY = 'groupshoot-language';
  var preferred =
    navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  var listeners = [];
  var current = storedChoice() || browserLanguage() || 'en';

  function baseOf(tag) {
    return String(tag).toLowerCase().split('-')[0];
  }

  function storedChoice() {
    try {
      var chosen = localStorage.getItem(STORAGE_KEY);
      return MESSAGES[chosen] ? chosen : null;
    } catch (e) {
      return null;
    }
  }

  function browserLanguage() {
    for (var index = 0; index < preferred.length; index += 1) {
      if (MESSAGES[baseOf(preferred[index])]) return baseOf(preferred[index]);
    }
    return null;
  }

  /** The browser's variant of the language (de-AT, en-GB), for Intl; the language itself otherwise. */
  function locale() {
    for (var index = 0; index < preferred.length; index += 1) {
      if (baseOf(preferred[index]) === current) return preferred[index];
    }
    return current;
  }

  /** A message with its `{name}` values filled in; with a `count`, the plural form the language's rules pick. */
  function t(key, values) {
    var messages = MESSAGES[current];
    var message = messages[key];
    if (values && typeof values.count === 'number' && message === undefined) {
      message = messages[key + '_' + new Intl.PluralRules(current).select(values.count)] || messages[key + '_other'];
    }
    if (message === undefined) message = key;
    return message.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && values[name] !== undefined ? String(values[name]) : whole;
    });
  }

  /** Writes a message into an element and remembers its key and values, so a change of language rewrites it. */
  function setText(node, key, values) {
    node.dataset.i18n = key;
    if (values) node.dataset.i18nValues = JSON.stringify(values);
    else delete node.dataset.i18nValues;
    node.textContent = t(key, values);
  }

  function apply(root) {
    (root || document).querySelectorAll('[data-i18n]').forEach(function (node) {
      node.textContent = t(
        node.dataset.i18n,
        node.dataset.i18nValues ? JSON.parse(node.dataset.i18nValues) : undefined,
      );
    });
    (root || document).querySelectorAll('[data-i18n-attributes]').forEach(function (node) {
      node.dataset.i18nAttributes.split(' ').forEach(function (pair) {
        var parts = pair.split('=');
        node.setAttribute(parts[0], t(parts[1]));
      });
    });
  }

  /** Switches the page to a language; `remember`: the participant chose it in the switcher. */
  function use(language, remember) {
    if (!MESSAGES[language]) return;
    if (remember) {
      try {
        localStorage.setItem(STORAGE_KEY, language);
      } catch (e) {
        /* storage off: this page view only */
      }
    }
    current = language;
    document.documentElement.lang = language;
    apply();
    listeners.forEach(function (listener) {
      listener(language);
    });
  }

  /** The gallery's default, where neither the participant nor the browser named a language the page speaks. */
  function useGalleryDefault(language) {
    if (!storedChoice() && !browserLanguage() && MESSAGES[language] && language !== current) use(language, false);
  }

  function dayDate(isoDate) {
    var parts = isoDate.split('-').map(Number);
    var date = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2]));
    return new Intl.DateTimeFormat(locale(), {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(date);
  }

  /** A day's "09:00"–"10:00" as the language writes a time range (no time zone: the times are the studio's local times). */
  function timeRange(start, end) {
    var at = function (time) {
      var parts = time.split(':').map(Number);
      return new Date(Date.UTC(2000, 0, 1, parts[0], parts[1]));
    };
    var format = new Intl.DateTimeFormat(locale(), { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
    return format.formatRange
      ? format.formatRange(at(start), at(end))
      : format.format(at(start)) + '–' + format.format(at(end));
  }

  function money(minor, currency) {
    try {
      return new Intl.NumberFormat(locale(), { style: 'currency', currency: currency.toUpperCase() }).format(
        minor / 100,
      );
    } catch (e) {
      return (minor / 100).toFixed(2) + ' ' + currency.toUpperCase();
    }
  }

  /** "a, b or c" in the language. */
  function alternatives(items) {
    try {
      return new Intl.ListFormat(locale(), { type: 'disjunction' }).format(items);
    } catch (e) {
      return items.join(' / ');
    }
  }

  /** The switcher: a labelled select of the languages, each named in itself. */
  function renderSwitcher(select) {
    select.textContent = '';
    LANGUAGES.forEach(function (language) {
      var option = document.createElement('option');
      option.value = language;
      option.lang = language;
      option.textContent = MESSAGES[language].languageName;
      select.appendChild(option);
    });
    select.value = current;
    select.addEventListener('change', function () {
      use(select.value, true);
    });
    listeners.push(function (language) {
      select.value = language;
    });
  }

  document.documentElement.lang = current;
  window.GROUPSHOOT_I18N = {
    languages: LANGUAGES,
    language: function () {
      return current;
    },
    t: t,
    setText: setText,
    apply: apply,
    use: use,
    useGalleryDefault: useGalleryDefault,
    onChange: function (listener) {
      listeners.push(listener);
    },
    dayDate: dayDate,
    timeRange: timeRange,
    money: money,
    alternatives: alternatives,
    renderSwitcher: renderSwitcher,
  };
})();
