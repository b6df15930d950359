// The move box: moves typed in any notation the server reads (coordinate `Ec2Dc3`, figurine
// `Cc2`, `P-Cc2`, `N-Db3/S`; Quasi-Alice `1e2e4>3`), with completion from the legal moves of the
// position shown. An ARIA combobox: ↓/↑ walk the suggestions, Tab completes, Enter plays (the one
// suggestion, the exact match, or the text as typed, which the server then reads or refuses with
// its one-line error), Esc clears. In Play, a move typed while the engine thinks is a premove.
import { el, $ } from './util.js';

const MAX_SHOWN = 8;

/** The written forms of a legal move: coordinate, figurine, and `P-…` for a pawn's figurine. */
export function moveForms(e) {
  const forms = [e.coord];
  if (e.figurine && e.figurine !== e.coord) forms.push(e.figurine);
  if (e.figurine && /^[A-E][a-e][1-5]/.test(e.figurine)) forms.push(`P-${e.figurine}`);
  return forms;
}

/**
 * The legal moves matching `typed`: [{entry, form}] best first (an exact form, then forms that
 * start with the text, case-sensitive before case-insensitive; the shortest form first).
 */
export function completions(legal, typed) {
  const t = typed.replace(/\s+/g, '');
  if (!t) return [];
  const lower = t.toLowerCase();
  const scored = [];
  for (const entry of legal || []) {
    let best = null;
    for (const form of moveForms(entry)) {
      let rank = null;
      if (form === t) rank = 0;
      else if (form.toLowerCase() === lower) rank = 1;
      else if (form.startsWith(t)) rank = 2;
      else if (form.toLowerCase().startsWith(lower)) rank = 3;
      if (rank !== null && (!best || rank < best.rank || (rank === best.rank && form.length < best.form.length))) best = { rank, form };
    }
    if (best) scored.push({ entry, form: best.form, rank: best.rank });
  }
  scored.sort((a, b) => a.rank - b.rank || a.form.length - b.form.length || a.form.localeCompare(b.form));
  return scored;
}

export class MoveBox {
  /** app: the page (app.line is the game line shown). */
  constructor(app) {
    this.app = app;
    this.input = $('#move-input');
    this.list = $('#move-completions');
    this.items = [];
    this.active = -1;
    this.input.addEventListener('input', () => { this.walked = false; this.suggest(); });
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    // the list closes a moment after the box loses the focus (a click on a suggestion lands first),
    // unless the focus has come back by then
    this.input.addEventListener('blur', () => setTimeout(() => { if (document.activeElement !== this.input) this.close(); }, 150));
    this.list.addEventListener('mousedown', (e) => e.preventDefault()); // keep the focus in the box
    this.list.addEventListener('click', (e) => {
      const li = e.target.closest('[data-k]');
      if (li) this.submit(this.items[Number(li.dataset.k)].entry.coord);
    });
  }

  /** The position moves are typed in: the one shown. */
  position() { return this.app.line && this.app.line.view; }

  suggest() {
    const pos = this.position();
    const typed = this.input.value;
    this.items = pos ? completions(pos.legal, typed).slice(0, MAX_SHOWN) : [];
    this.active = this.items.length ? 0 : -1;
    this.draw();
  }

  draw() {
    const open = this.items.length > 0 && this.input.value.trim() !== '';
    this.list.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    this.list.replaceChildren(...this.items.map((it, k) => el('li', {
      id: `move-opt-${k}`, role: 'option', dataset: { k: String(k), coord: it.entry.coord },
      class: k === this.active ? 'active' : '', 'aria-selected': String(k === this.active),
    }, el('span.form', { text: it.form }), it.form !== it.entry.coord ? el('span.muted', { text: ` ${it.entry.coord}` }) : null)));
    if (open && this.active >= 0) this.input.setAttribute('aria-activedescendant', `move-opt-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  close() {
    this.items = [];
    this.active = -1;
    this.draw();
  }

  onKey(e) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!this.items.length) return;
      e.preventDefault();
      const d = e.key === 'ArrowDown' ? 1 : -1;
      this.walked = true;
      this.active = (this.active + d + this.items.length) % this.items.length;
      this.draw();
    } else if (e.key === 'Tab' && this.items.length && this.input.value.trim()) {
      e.preventDefault();
      this.input.value = this.items[Math.max(0, this.active)].form;
      this.suggest();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      const exact = this.items.find((it) => it.rank <= 1);
      // the exact form, the one suggestion, or the one walked to with the arrows
      const pick = exact || (this.items.length === 1 ? this.items[0] : null) || (this.walked && this.active >= 0 ? this.items[this.active] : null);
      this.submit(pick ? pick.entry.coord : text);
    } else if (e.key === 'Escape') {
      this.input.value = '';
      this.close();
    }
  }

  /** Plays `coord` (or a text the server reads) in the line shown; errors go to the page's error line. */
  async submit(coord) {
    const line = this.app.line;
    this.input.value = '';
    this.close();
    if (!line || !line.view) return;
    try {
      if (line.premoveOpts && line.premoveOpts()) {
        line.setPremove({ coord });
        return;
      }
      if (!line.humanMove && !line.interactive()) {
        throw new Error(line.view.status === 'over' ? 'the game is over in this position' : 'it is not your move');
      }
      this.app.clearError();
      if (line.humanMove) await line.humanMove(coord);
      else await line.onMove({ coord });
    } catch (e) {
      this.app.showError(e);
    }
  }
}
