// The studio console's page (docs/studio-console.md): the galleries of the tenant and a gallery's
// review queue; the other views are in studio-views.js, which finds the shared helpers on
// window.studioConsole. Every request is relative to the page's address, which carries the session secret.
'use strict';

(function () {
  const view = document.getElementById('view');
  const statusLine = document.getElementById('status');
  let current = -1;
  /** The persons the pages of the queue and the assign fields named, by ID, for names beside IDs (never every person). */
  const persons = new Map();
  /** The review queue on screen: its gallery, and where its next page starts (null: none). */
  let queue = { token: null, next: null, loading: null };

  function remember(named) {
    for (const person of named) persons.set(person.personId, person);
  }

  /**
   * The person a typed text names, asked of the console's server: their ID, their access code (any
   * case) or their employee ID. It answers through keys of their own; a name finds nobody.
   */
  async function personIdOf(token, text) {
    const typed = text.trim();
    if (persons.has(typed)) return typed;
    const { persons: found } = await api(
      `galleries/${encodeURIComponent(token)}/person-lookup?text=${encodeURIComponent(typed)}`,
    );
    remember(found);
    if (found.length === 1) return found[0].personId;
    if (found.length === 0) throw new Error(`Nobody in this gallery has the code, employee ID or ID "${typed}"`);
    throw new Error(
      `${found.length} persons have the employee ID "${typed}": type a code (${found.map((person) => person.code).join(', ')})`,
    );
  }

  function who(personId) {
    const person = persons.get(personId);
    return person ? `${person.name} (${person.code})` : personId;
  }

  /** A person's name (and code) as a link to their view. */
  function personLink(token, personId) {
    return element('a', {
      href: `#/person/${encodeURIComponent(token)}/${encodeURIComponent(personId)}`,
      text: who(personId),
    });
  }

  function element(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (name === 'text') node.textContent = value;
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  async function api(path, body) {
    const response = await fetch(
      'api/' + path,
      body === undefined
        ? {}
        : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    );
    const answer = await response.json();
    if (!answer.ok) throw new Error(answer.message);
    return answer;
  }

  /**
   * Draws a view's content, unless the address changed since the view began (`here`): a slow
   * answer of the page left behind must not replace the page the user went to.
   */
  function render(here, ...children) {
    if (location.hash === here) view.replaceChildren(...children);
  }

  function say(text) {
    statusLine.textContent = text;
  }

  async function showGalleries() {
    const here = location.hash;
    const { tenant, galleries } = await api('galleries');
    document.getElementById('tenant').textContent = 'Tenant ' + tenant;
    const rows = galleries.map((gallery) =>
      element(
        'tr',
        {},
        element('td', {}, element('a', { href: '#/review/' + encodeURIComponent(gallery.token), text: gallery.name })),
        element('td', { text: gallery.token }),
        element('td', { text: gallery.isGroupShoot ? 'yes' : 'no' }),
        element(
          'td',
          {},
          ...gallery.days.map((day) =>
            element(
              'div',
              {},
              `${day.date} ${day.label}: ${day.booked}/${day.capacity === null ? 'unlimited' : day.capacity} `,
              cardsLink(gallery.token, day.id, 'cards'),
              printedNote(day.cardsPrinted),
            ),
          ),
        ),
        element('td', { class: 'stats', 'data-gallery': gallery.token }, gallery.isGroupShoot ? '…' : ''),
        element(
          'td',
          { class: 'links' },
          gallery.isGroupShoot
            ? element('a', { href: '#/persons/' + encodeURIComponent(gallery.token), text: 'Persons' })
            : null,
          cardsLink(gallery.token, null, 'Cards (PDF)'),
          printedNote(gallery.cardsPrinted),
        ),
      ),
    );
    render(
      here,
      element('h2', { text: `Galleries (${galleries.length})` }),
      element(
        'table',
        {},
        element(
          'thead',
          {},
          element(
            'tr',
            {},
            ...['Gallery', 'Token', 'Group shoot', 'Days: booked/capacity', 'Photos and check-ins', ''].map((text) =>
              element('th', { text }),
            ),
          ),
        ),
        element('tbody', {}, ...rows),
      ),
    );
    await Promise.all(
      [...view.querySelectorAll('td.stats[data-gallery]')].filter((cell) => cell.textContent).map(showStats),
    );
  }

  /** A group shoot's photo counts and check-ins per day, drawn once its figures arrive. */
  async function showStats(cell) {
    const stats = await api(`galleries/${encodeURIComponent(cell.dataset.gallery)}/stats`);
    const most = Math.max(1, ...stats.checkInsByDay.map((day) => day.count));
    cell.replaceChildren(
      element('div', {
        class: 'photo-counts',
        text: `${stats.photos.assigned} assigned, ${stats.photos.unassigned} unassigned, ${stats.photos.withheld} withheld`,
      }),
      element('div', {
        text: `${stats.persons.total} persons: ${stats.persons.imported} imported, ${stats.persons.checkedIn} checked in`,
      }),
      ...stats.checkInsByDay.map((day) =>
        element(
          'div',
          { class: 'checkins' },
          `${day.date} `,
          element('meter', {
            min: '0',
            max: String(most),
            value: String(day.count),
            'aria-label': `check-ins on ${day.date}`,
          }),
          ` ${day.count}`,
        ),
      ),
    );
  }

  /** When the cards were last printed, and how many; nothing when no printing was recorded. */
  function printedNote(printed) {
    return printed
      ? element('span', { class: 'printed', text: ` ${printed.cards} printed ${printed.at.slice(0, 10)}` })
      : null;
  }

  /** The camera cards of a gallery, or of one of its days, as the PDF of `cards pdf` (a download). */
  function cardsLink(token, dayId, text) {
    const query = dayId ? '?day=' + encodeURIComponent(dayId) : '';
    return element('a', {
      class: 'cards',
      href: `api/galleries/${encodeURIComponent(token)}/cards${query}`,
      download: '',
      text,
    });
  }

  function photoCard(token, photo) {
    const reason = (photo.reason || '').replaceAll('_', ' ');
    const card = photo.card
      ? element(
          'p',
          {},
          `Card ${photo.card.code || 'with several codes'}: `,
          photo.card.personId ? personLink(token, photo.card.personId) : 'nobody',
        )
      : element('p', { text: 'No card before it' });
    const thumbnail = element('img', {
      src: `api/galleries/${encodeURIComponent(token)}/thumbnails/${encodeURIComponent(photo.photoId)}`,
      alt: photo.path,
      loading: 'lazy',
      width: '320',
      height: '213',
    });
    thumbnail.addEventListener('error', () =>
      thumbnail.replaceWith(element('div', { class: 'missing', text: 'no image in the bucket' })),
    );
    const personField = element('input', {
      type: 'text',
      placeholder: 'code, employee ID or ID',
      'aria-label': 'Person to assign ' + photo.path + ' to',
    });
    const assign = async () => {
      try {
        const personId = await personIdOf(token, personField.value);
        await act(token, photo, 'assign', { personId });
      } catch (error) {
        say(error.message);
      }
    };
    personField.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') assign();
      if (event.key === 'Escape') personField.blur();
    });
    return element(
      'article',
      { class: 'photo' + (photo.heldFor ? ' withheld' : ''), tabindex: '-1', 'data-photo': photo.photoId },
      beside(
        thumbnail,
        photo.reference ? referenceFigure(token, photo.reference) : null,
        photo.card ? cardFigure(token, photo.card) : null,
      ),
      element('p', { text: photo.path }),
      element('p', { text: photo.capturedAt || 'no capture time' }),
      element('p', { class: 'reason', text: (photo.heldFor ? 'Withheld: ' : 'Unassigned: ') + reason }),
      card,
      photo.candidates.length
        ? element('p', {
            text: 'Faces: ' + photo.candidates.map((c) => `${who(c.personId)} ${c.distance.toFixed(2)}`).join(', '),
          })
        : null,
      element(
        'div',
        { class: 'actions' },
        photo.heldFor
          ? element('button', {
              type: 'button',
              class: 'release',
              text: 'Release to ' + who(photo.heldFor),
              onclick: () => act(token, photo, 'release'),
            })
          : null,
        personField,
        element('button', { type: 'button', text: 'Assign', onclick: assign }),
        element('button', {
          type: 'button',
          class: 'dismiss',
          text: "Nobody's",
          title: "Mark as nobody's: it leaves the queue, and no card gives it to anyone",
          onclick: () => act(token, photo, 'dismiss'),
        }),
      ),
    );
  }

  /** The photo alone, or side by side with what it is judged against. */
  function beside(thumbnail, ...figures) {
    const shown = figures.filter(Boolean);
    return shown.length
      ? element('div', { class: 'pair' + (shown.length > 1 ? ' three' : '') }, thumbnail, ...shown)
      : thumbnail;
  }

  /** The camera card that governs the photo, as the camera saw it. */
  function cardFigure(token, card) {
    const image = element('img', {
      src: `api/galleries/${encodeURIComponent(token)}/thumbnails/${encodeURIComponent(card.photoId)}`,
      alt: 'Camera card ' + (card.code || 'with several codes'),
      loading: 'lazy',
      width: '320',
      height: '213',
    });
    image.addEventListener('error', () =>
      image.replaceWith(element('div', { class: 'missing', text: 'no card image' })),
    );
    return element(
      'figure',
      { class: 'reference card-photo' },
      image,
      element('figcaption', { text: 'Card ' + (card.code || 'with several codes') }),
    );
  }

  /** Beside a face mismatch: the face of the person the card names, as their selfie or first photo shows it. */
  function referenceFigure(token, reference) {
    const image = element('img', {
      src: `api/galleries/${encodeURIComponent(token)}/references/${encodeURIComponent(reference.personId)}`,
      alt: 'Reference of ' + who(reference.personId),
      loading: 'lazy',
      width: '320',
      height: '213',
    });
    image.addEventListener('error', () =>
      image.replaceWith(element('div', { class: 'missing', text: 'no reference image' })),
    );
    return element(
      'figure',
      { class: 'reference' },
      image,
      element('figcaption', {
        text: `${who(reference.personId)}: ${reference.kind === 'selfie' ? 'selfie' : 'first photo'}`,
      }),
    );
  }

  async function act(token, photo, action, body) {
    try {
      const answer = await api(
        `galleries/${encodeURIComponent(token)}/photos/${encodeURIComponent(photo.photoId)}/${action}`,
        body || {},
      );
      const done = {
        release: () => `Released ${photo.path} to ${who(photo.heldFor)}`,
        assign: () => `Assigned ${photo.path} to ${who(answer.personId)}`,
        dismiss: () => `Marked ${photo.path} as nobody's`,
      };
      say(done[action]());
      // The photo leaves the queue where it is; the cursor stays at its place, which is now the next photo.
      const index = cards().findIndex((card) => card.dataset.photo === photo.photoId);
      cards()[index]?.remove();
      const { counts } = await api(`galleries/${encodeURIComponent(token)}/review?limit=0`);
      showCounts(counts);
      if (cards().length === 0 && queue.next) await loadMore(token);
      current = -1;
      move(Math.max(index, 0) + 1);
    } catch (error) {
      say(error.message);
    }
  }

  function showCounts(counts) {
    const line = document.getElementById('counts');
    if (line) line.textContent = `${counts.withheld} withheld, ${counts.unassigned} unassigned`;
  }

  /** A page of the queue: its persons remembered, its photos drawn under their camera (a camera a page began carries on). */
  function drawPage(token, page) {
    remember(page.persons);
    const list = document.getElementById('queue');
    for (const photo of page.photos) {
      const camera = photo.camera || 'Unknown camera';
      let grid = list.lastElementChild;
      if (!grid || grid.dataset.camera !== camera) {
        list.append(element('h3', { class: 'camera', text: camera }));
        grid = element('div', { class: 'grid', 'data-camera': camera });
        list.append(grid);
      }
      grid.append(photoCard(token, photo));
    }
    queue.next = page.next;
    document.getElementById('more').hidden = !page.next;
  }

  /** The next page of the queue, below the photos shown (once at a time). */
  function loadMore(token) {
    if (!queue.next || queue.token !== token) return Promise.resolve();
    queue.loading ??= api(`galleries/${encodeURIComponent(token)}/review?after=${encodeURIComponent(queue.next)}`)
      .then((page) => {
        if (queue.token === token) drawPage(token, page);
      })
      .finally(() => {
        queue.loading = null;
      });
    return queue.loading;
  }

  async function showReview(token) {
    const here = location.hash;
    const page = await api(`galleries/${encodeURIComponent(token)}/review`);
    if (location.hash !== here) return;
    queue = { token, next: null, loading: null };
    render(
      here,
      element('h2', { text: 'Review queue of ' + token }),
      element('p', { class: 'counts', id: 'counts' }),
      element('div', { id: 'queue' }),
      element('button', {
        type: 'button',
        id: 'more',
        text: 'More photos',
        hidden: '',
        onclick: () => loadMore(token).catch((error) => say(error.message)),
      }),
    );
    showCounts(page.counts);
    drawPage(token, page);
    current = -1;
    move(1);
  }

  function cards() {
    return [...view.querySelectorAll('article.photo')];
  }

  function move(step) {
    const all = cards();
    if (!all.length) return;
    all[current]?.classList.remove('current');
    current = Math.max(0, Math.min(all.length - 1, current + step));
    all[current].classList.add('current');
    all[current].focus({ preventScroll: true });
    all[current].scrollIntoView({ block: 'nearest' });
  }

  document.addEventListener('keydown', (event) => {
    if (
      !location.hash.startsWith('#/review/') ||
      event.target.tagName === 'INPUT' ||
      event.ctrlKey ||
      event.metaKey ||
      event.altKey
    )
      return;
    const card = cards()[current];
    if (event.key === 'j' && current === cards().length - 1 && queue.next)
      loadMore(queue.token)
        .then(() => move(1))
        .catch((error) => say(error.message));
    else if (event.key === 'j') move(1);
    else if (event.key === 'k') move(-1);
    else if (event.key === 'r') card?.querySelector('button.release')?.click();
    else if (event.key === 'a') card?.querySelector('input')?.focus();
    else if (event.key === 'n') card?.querySelector('button.dismiss')?.click();
    else return;
    event.preventDefault();
  });

  /** Views of studio-views.js, by the first part of the address after `#/`. */
  const views = {};
  window.studioConsole = { element, api, say, render, views, personLink, cardsLink };

  async function route() {
    say('');
    current = -1;
    try {
      const [, name, ...rest] = location.hash.split('/');
      const parts = rest.map(decodeURIComponent);
      if (name === 'review' && parts.length === 1) await showReview(parts[0]);
      else if (views[name]) await views[name](...parts);
      else await showGalleries();
    } catch (error) {
      say(error.message);
    }
  }

  window.addEventListener('hashchange', route);
  // After studio-views.js (deferred too) has added its views.
  document.addEventListener('DOMContentLoaded', route);
})();
