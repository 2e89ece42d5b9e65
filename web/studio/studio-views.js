// The studio console's other views (docs/studio-console.md): a gallery's persons, a person (their
// photos, the pick for HR, erasure), the webhooks. The helpers are studio.js's, on window.studioConsole.
'use strict';

(function () {
  const { element, api, say, render, views } = window.studioConsole;

  const galleryPath = (token) => 'galleries/' + encodeURIComponent(token);
  const personHref = (token, personId) => `#/person/${encodeURIComponent(token)}/${encodeURIComponent(personId)}`;
  // What an imported person typed at their check-in where it differs from HR's import, which stays theirs.
  const declaredText = (declared) => {
    const { name, email, employeeId } = declared || {};
    return [name && `name "${name}"`, email && `email ${email}`, employeeId && `employee ID ${employeeId}`]
      .filter(Boolean)
      .join(', ');
  };

  views.persons = async function showPersons(token) {
    const here = location.hash;
    const { persons } = await api(galleryPath(token) + '/persons');
    const rows = persons.map((person) =>
      element(
        'tr',
        {},
        element('td', {}, element('a', { href: personHref(token, person.personId), text: person.name })),
        element('td', { text: person.code }),
        element('td', { text: person.employeeId || '' }),
        element('td', { text: String(person.photoCount) }),
        element('td', { text: person.checkedInAt || 'imported' }),
        element('td', { text: declaredText(person.declared) }),
      ),
    );
    render(
      here,
      element('h2', { text: `Persons of ${token} (${persons.length})` }),
      element('p', {}, element('a', { href: '#/review/' + encodeURIComponent(token), text: 'Review queue' })),
      element(
        'table',
        {},
        element(
          'thead',
          {},
          element(
            'tr',
            {},
            ...['Name', 'Code', 'Employee ID', 'Photos', 'Checked in', 'Declared at check-in'].map((text) =>
              element('th', { text }),
            ),
          ),
        ),
        element('tbody', {}, ...rows),
      ),
    );
  };

  views.person = async function showPerson(token, personId) {
    const here = location.hash;
    const path = `${galleryPath(token)}/persons/${encodeURIComponent(personId)}`;
    const { person, photos } = await api(path);
    const tiles = photos.map((photo) => {
      const thumbnail = element('img', {
        src: `api/${galleryPath(token)}/thumbnails/${encodeURIComponent(photo.photoId)}`,
        alt: photo.fileName,
        loading: 'lazy',
        width: '320',
        height: '213',
      });
      thumbnail.addEventListener('error', () =>
        thumbnail.replaceWith(element('div', { class: 'missing', text: 'no image in the bucket' })),
      );
      return element(
        'article',
        { class: 'photo' + (photo.picked ? ' picked' : ''), 'data-photo': photo.photoId },
        thumbnail,
        element('p', { text: photo.fileName }),
        element('p', { text: photo.capturedAt || 'no capture time' }),
        photo.picked
          ? element('p', { class: 'pick', text: 'Pick for HR' })
          : element(
              'div',
              { class: 'actions' },
              element('button', { type: 'button', class: 'pick', text: 'Pick for HR', onclick: () => pick(photo) }),
            ),
      );
    });

    async function pick(photo) {
      try {
        await api(path + '/pick', { photoId: photo.photoId });
        await showPerson(token, personId);
        say(`Picked ${photo.fileName} as the portrait of ${person.name}`);
      } catch (error) {
        say(error.message);
      }
    }

    const erasure = element(
      'section',
      { class: 'erasure' },
      element('h3', { text: 'Erase' }),
      element('p', {
        text: 'Erasing removes everything held about this person (as npm run admin -- person erase). It is final.',
      }),
      element('button', {
        type: 'button',
        id: 'erase-preview',
        text: `Erase ${person.name}…`,
        onclick: () => preview(),
      }),
    );

    async function preview() {
      try {
        const { lines } = await api(path + '/erase', { dryRun: true });
        const confirmation = element('input', {
          type: 'text',
          id: 'erase-confirm',
          'aria-label': `Type ${person.name} to confirm`,
          placeholder: person.name,
          autocomplete: 'off',
        });
        const erase = element('button', {
          type: 'button',
          id: 'erase',
          class: 'danger',
          text: `Erase ${person.name}`,
          onclick: () => eraseNow(confirmation.value),
        });
        confirmation.addEventListener('keydown', (event) => event.key === 'Enter' && eraseNow(confirmation.value));
        erasure.replaceChildren(
          element('h3', { text: 'Erase: what will go' }),
          element('pre', { class: 'receipt', text: lines.join('\n') }),
          element('label', { for: 'erase-confirm', text: `Type the name "${person.name}" to confirm: ` }),
          confirmation,
          erase,
        );
        confirmation.focus();
      } catch (error) {
        say(error.message);
      }
    }

    async function eraseNow(typed) {
      try {
        const { lines } = await api(path + '/erase', { confirm: typed });
        render(
          here,
          element('h2', { text: `${person.name} erased` }),
          element('pre', { class: 'receipt', id: 'erase-receipt', text: lines.join('\n') }),
          element(
            'p',
            {},
            element('a', { href: '#/persons/' + encodeURIComponent(token), text: 'Persons of ' + token }),
          ),
        );
        say(`Erased ${person.name}`);
      } catch (error) {
        say(error.message);
      }
    }

    render(
      here,
      element('h2', { text: `${person.name} (${person.code})` }),
      element(
        'p',
        {},
        person.employeeId ? `Employee ID ${person.employeeId} · ` : '',
        `${photos.length} photo(s) in capture order · `,
        element('a', { href: '#/persons/' + encodeURIComponent(token), text: 'Persons of ' + token }),
      ),
      person.declared
        ? element('p', {
            class: 'declared',
            text: `Declared at check-in, beside what HR imported (the export and emails keep HR's): ${declaredText(person.declared)}`,
          })
        : '',
      consentsOf(person),
      element('div', { class: 'grid' }, ...tiles),
      erasure,
    );
  };

  /** The person's consents: each one's value, whether the gallery asks for it, and its last change since check-in. */
  function consentsOf(person) {
    const value = (given) => (given === null ? 'not asked' : given ? 'given' : 'not given');
    const since = (consent) =>
      consent.changedAt
        ? `${consent.changedAt} (${consent.changedBy})`
        : consent.given !== null && person.checkedInAt
          ? `at check-in ${person.checkedInAt}`
          : '';
    return element(
      'section',
      { class: 'consents', id: 'person-consents' },
      element('h3', { text: 'Consents' }),
      table(
        ['Consent', 'Value', 'Asked', 'Last change'],
        person.consents.map((consent) =>
          element(
            'tr',
            { 'data-consent': consent.consent },
            element('td', { text: consent.consent }),
            element('td', { text: value(consent.given) }),
            element('td', { text: consent.asked ? 'yes' : 'no' }),
            element('td', { text: since(consent) }),
          ),
        ),
      ),
      element('p', {
        text: "The participant withdraws a consent on the page their photo link opens, or with an email's unsubscribe link. consentGiven, the studio's own consent, ends only with erasure.",
      }),
    );
  }

  const table = (headings, rows) =>
    element(
      'table',
      {},
      element('thead', {}, element('tr', {}, ...headings.map((text) => element('th', { text })))),
      element('tbody', {}, ...rows),
    );

  views.webhooks = async function showWebhooks() {
    const here = location.hash;
    const { subscriptions } = await api('webhooks');
    render(
      here,
      element('h2', { text: `Webhook subscriptions (${subscriptions.length})` }),
      table(
        ['URL', 'Events', 'Enabled', 'Failing since', 'Description'],
        subscriptions.map((subscription) =>
          element(
            'tr',
            {},
            element(
              'td',
              {},
              element('a', {
                href: '#/webhook/' + encodeURIComponent(subscription.subscriptionId),
                text: subscription.url,
              }),
            ),
            element('td', { text: subscription.eventTypes.join(', ') }),
            element('td', {
              text: subscription.enabled
                ? 'yes'
                : `no${subscription.disabledReason ? ` (${subscription.disabledReason})` : ''}`,
            }),
            element('td', { text: subscription.failingSince ? new Date(subscription.failingSince).toISOString() : '' }),
            element('td', { text: subscription.description || '' }),
          ),
        ),
      ),
    );
  };

  /** The outcome of a delivery's last attempt, as `webhook deliveries` prints it. */
  function lastOutcome(delivery) {
    const last = delivery.attemptLog[delivery.attemptLog.length - 1];
    if (!last) return '';
    return last.failure
      ? `${last.failure}${last.statusCode ? ' ' + last.statusCode : ''}`
      : `ok ${last.statusCode || ''}`.trim();
  }

  views.webhook = async function showDeliveries(subscriptionId) {
    const here = location.hash;
    const path = 'webhooks/' + encodeURIComponent(subscriptionId);
    const { deliveries } = await api(path + '/deliveries');

    async function replay(body, what) {
      try {
        const { replayed } = await api(path + '/replay', body);
        await showDeliveries(subscriptionId);
        say(`Replay of ${what} requested (${replayed}); it is sent within seconds`);
      } catch (error) {
        say(error.message);
      }
    }

    render(
      here,
      element('h2', { text: `Deliveries of ${subscriptionId}, newest first (${deliveries.length})` }),
      element(
        'p',
        {},
        element('a', { href: '#/webhooks', text: 'Subscriptions' }),
        ' ',
        element('button', {
          type: 'button',
          id: 'replay-failed',
          text: 'Replay the failed ones',
          onclick: () => replay({ failed: true }, 'the failed deliveries'),
        }),
      ),
      table(
        ['Event', 'Type', 'Status', 'Attempts', 'Last outcome', ''],
        deliveries.map((delivery) =>
          element(
            'tr',
            { 'data-event': delivery.eventId },
            element('td', { text: delivery.eventId }),
            element('td', { text: delivery.eventType }),
            element('td', { class: 'delivery-status', text: delivery.status }),
            element('td', { text: String(delivery.attempts) }),
            element('td', { text: lastOutcome(delivery) }),
            element(
              'td',
              {},
              delivery.status === 'pending' || delivery.status === 'replay_requested'
                ? ''
                : element('button', {
                    type: 'button',
                    text: 'Replay',
                    onclick: () => replay({ eventId: delivery.eventId }, delivery.eventId),
                  }),
            ),
          ),
        ),
      ),
    );
  };
})();
