// The rotatable 3D board: five stacked translucent levels of tiles, pieces as camera-facing
// sprites standing on their tiles, labels for levels, files and ranks, arrows for moves. Renders on
// demand (no animation loop).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { LEVELS, FILES, coords } from './util.js';

const GAP = 2.0; // height between levels
const COLORS = {
  light: 0xeadfc6, dark: 0x9a7f5d, target: 0x2fae66, selected: 0x3a7bd5,
  last: 0xe2bd3c, check: 0xe03c3c, pv: 0x8e6bd6, premove: 0xd6692f,
};
const BG = 0x1d2330;
const PIECE = 0.76; // a piece's sprite size (a cell is 1)
const FOOT = 0.03; // a piece's foot above its tile's centre (tiles are 0.05 thick)
const ARROW_LIFT = 0.32; // arrows run at about the middle of a standing piece
const ARROW_COLORS = { last: 0xf2b705, best: 0x1fbf5b, pv: 0x7c6cf0 };
const LEVEL_LABEL = 0.75; // the size of a level's letter

/**
 * Whether this browser has WebGL 2 at all. A probe context would cost as much as the view's own
 * (a tenth of a second with a software renderer) on every page load, so only the API is looked
 * for; a context that cannot be made is found when the view is made (the page then falls back
 * to the levels side by side and says why).
 */
export function webglAvailable() {
  return typeof window.WebGL2RenderingContext === 'function';
}

/**
 * The renderer: antialiased on a graphics card; not with a software renderer (SwiftShader, used
 * where the browser has no GPU), where multisampling makes every frame several times dearer
 * (the first frame of the page among them) for edges the translucent tiles hardly show.
 */
function makeRenderer() {
  const plain = new THREE.WebGLRenderer({ antialias: false });
  const gl = plain.getContext();
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  if (/swiftshader|llvmpipe|software/i.test(name)) return plain;
  plain.dispose();
  plain.forceContextLoss();
  return new THREE.WebGLRenderer({ antialias: true });
}

const textures = new Map();
function pieceTexture(color, letter) {
  const key = color + letter;
  if (textures.has(key)) return textures.get(key);
  const c = document.createElement('canvas');
  c.width = c.height = 128;
  const g = c.getContext('2d');
  g.beginPath();
  g.arc(64, 64, 56, 0, Math.PI * 2);
  g.fillStyle = color === 'white' ? '#fbf8ee' : '#1c1c1c';
  g.fill();
  g.lineWidth = 8;
  g.strokeStyle = color === 'white' ? '#1c1c1c' : '#f2f2f2';
  g.stroke();
  g.fillStyle = color === 'white' ? '#1c1c1c' : '#ffffff';
  g.font = 'bold 76px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(letter, 64, 69);
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  t.anisotropy = 4;
  textures.set(key, t);
  return t;
}

function labelSprite(text, size, color) {
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const g = c.getContext('2d');
  g.fillStyle = color;
  g.font = 'bold 48px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, 32, 35);
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  const s = new THREE.Sprite(new THREE.SpriteMaterial({ map: t, transparent: true, depthWrite: false }));
  s.scale.set(size, size, 1);
  return s;
}

const footGeo = new THREE.CircleGeometry(0.3, 24).rotateX(-Math.PI / 2);
const footMat = new THREE.MeshBasicMaterial({ color: 0x000000, transparent: true, opacity: 0.38, depthWrite: false });

/** A soft dark disc on the tile under a piece: where it stands, seen from any angle. */
function footMesh() {
  const m = new THREE.Mesh(footGeo, footMat);
  m.raycast = () => {}; // never picked: the tile and the piece are
  return m;
}

const shaftGeo = new THREE.CylinderGeometry(1, 1, 1, 12).translate(0, 0.5, 0);
const headGeo = new THREE.ConeGeometry(1, 1, 16).translate(0, 0.5, 0);

/** An arrow from world point a to b: a shaft and a cone, coloured by kind, drawn on top. */
function arrowMesh(a, b, kind) {
  const color = ARROW_COLORS[kind] ?? ARROW_COLORS.best;
  const pv = kind === 'pv';
  const mat = new THREE.MeshBasicMaterial({ color, transparent: true, opacity: pv ? 0.6 : 1, depthTest: false, depthWrite: false });
  const dir = b.clone().sub(a);
  const len = dir.length();
  dir.normalize();
  const start = a.clone().addScaledVector(dir, Math.min(0.22, len * 0.2));
  const end = b.clone().addScaledVector(dir, -Math.min(0.18, len * 0.15));
  const total = start.distanceTo(end);
  const headLen = Math.min(0.42, total * 0.45);
  const group = new THREE.Group();
  group.position.copy(start);
  group.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), dir);
  const r = pv ? 0.055 : 0.075;
  const shaft = new THREE.Mesh(shaftGeo, mat);
  shaft.scale.set(r, total - headLen, r);
  const head = new THREE.Mesh(headGeo, mat);
  head.scale.set(r * 2.6, headLen, r * 2.6);
  head.position.y = total - headLen;
  group.add(shaft, head);
  group.renderOrder = pv ? 2 : 3;
  shaft.renderOrder = head.renderOrder = group.renderOrder;
  group.userData = { kind, mid: start.clone().lerp(end.clone().addScaledVector(dir, -headLen), 0.5) };
  return group;
}

export class Board3D {
  constructor(container, onClick) {
    this.container = container;
    this.onClick = onClick;
    this.renderer = makeRenderer();
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(BG, 1);
    this.canvas = this.renderer.domElement;
    container.append(this.canvas);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(38, 1, 0.1, 200);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enableDamping = false;
    this.controls.minDistance = 5;
    this.controls.maxDistance = 40;
    this.controls.addEventListener('change', () => this.requestRender());
    this.ruleset = null;
    this.flipped = false;
    this.tiles = [];
    this.sprites = new Map(); // cell → sprite
    this.labels = new THREE.Group();
    this.scene.add(this.labels);
    this.levelLabels = []; // one letter per level, index = level
    this.arrows = new THREE.Group();
    this.scene.add(this.arrows);
    this.anchor = 0.25; // sprite centre.y of the pieces: see syncAnchors
    const tileGeo = new THREE.BoxGeometry(0.94, 0.05, 0.94);
    for (let i = 0; i < 125; i++) {
      const { level, rank, file } = coords(i);
      const m = new THREE.Mesh(tileGeo, new THREE.MeshBasicMaterial({ transparent: true, depthWrite: false }));
      m.position.set(file - 2, 0, 2 - rank);
      m.userData.cell = i;
      m.userData.level = level;
      m.userData.parity = (level + rank + file) % 2 ? 'light' : 'dark';
      this.tiles.push(m);
      this.scene.add(m);
    }
    this.frames = [];
    const frameGeo = new THREE.EdgesGeometry(new THREE.BoxGeometry(5.1, 0.05, 5.1));
    for (let l = 0; l < 5; l++) {
      const f = new THREE.LineSegments(frameGeo, new THREE.LineBasicMaterial({ color: 0x7f8aa3 }));
      this.frames.push(f);
      this.scene.add(f);
    }
    this.raycaster = new THREE.Raycaster();
    let down = null;
    this.canvas.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
    this.canvas.addEventListener('pointerup', (e) => {
      if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 6) return;
      down = null;
      const cell = this.pick(e.clientX, e.clientY);
      if (cell !== null && this.onClick) this.onClick(cell);
    });
    // Dragging a piece: a press on a piece the page lets move (dragHooks.canDrag) holds the camera
    // still (the capture phase runs before OrbitControls' own listener); released over another
    // cell, that cell is dropped on. A press elsewhere turns the view as before.
    this.dragHooks = null; // {canDrag(cell), start(cell), drop(cell | null)}
    container.addEventListener('pointerdown', (e) => {
      const hooks = this.dragHooks;
      if (!hooks || e.button !== 0) return;
      const cell = this.pick(e.clientX, e.clientY);
      if (cell === null || !hooks.canDrag(cell)) return;
      this.controls.enabled = false;
      const x0 = e.clientX;
      const y0 = e.clientY;
      let moved = false;
      const move = (ev) => {
        if (!moved && Math.hypot(ev.clientX - x0, ev.clientY - y0) > 6) {
          moved = true;
          document.body.dataset.dragging = '1';
          hooks.start(cell);
        }
      };
      const up = (ev) => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
        window.removeEventListener('pointercancel', up);
        this.controls.enabled = true;
        if (!moved) return; // a click: the canvas's pointerup has it
        delete document.body.dataset.dragging;
        const over = ev.type === 'pointerup' ? this.pick(ev.clientX, ev.clientY) : null;
        hooks.drop(over !== cell ? over : null);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
      window.addEventListener('pointercancel', up);
    }, { capture: true });
    const reset = document.getElementById('camera-reset');
    if (reset) reset.addEventListener('click', () => this.resetCamera());
    document.addEventListener('keydown', (e) => this.key(e));
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  levelY(level) {
    return (this.ruleset === 'raumschach' ? level : 4 - level) * GAP;
  }

  /** Rebuild what depends on the ruleset: heights and labels. */
  layout(ruleset) {
    this.ruleset = ruleset;
    for (const t of this.tiles) t.position.y = this.levelY(t.userData.level);
    this.frames.forEach((f, l) => { f.position.y = this.levelY(l); });
    this.labels.clear();
    this.levelLabels = [];
    for (let l = 0; l < 5; l++) {
      const s = labelSprite(LEVELS[l], LEVEL_LABEL, '#ffd36b');
      s.userData.level = l;
      this.levelLabels.push(s);
      this.labels.add(s);
    }
    this.placeLevelLabels();
    const bottom = Math.min(this.levelY(0), this.levelY(4));
    const top = Math.max(this.levelY(0), this.levelY(4));
    for (const y of [bottom, top]) {
      for (let f = 0; f < 5; f++) {
        for (const z of [2.95, -2.95]) {
          const s = labelSprite(FILES[f], 0.5, '#cfd6e6');
          s.position.set(f - 2, y, z);
          this.labels.add(s);
        }
      }
      for (let r = 0; r < 5; r++) {
        for (const x of [-2.95, 2.95]) {
          const s = labelSprite(String(r + 1), 0.5, '#cfd6e6');
          s.position.set(x, y, 2 - r);
          this.labels.add(s);
        }
      }
    }
    this.resetCamera();
  }

  /**
   * One letter per level on the viewer's left, beyond the rank labels, each level's letter at a
   * different depth (the top level's at the back, the bottom level's at the front): in the default
   * camera they run down the left side well apart, and seen from straight above they stand in a
   * column instead of on top of one another. Lower levels' letters stand a little further out, so
   * that from above (where perspective shrinks the lower levels) they stay clear of the top level's
   * rank labels. Mirrored for the flipped board.
   */
  placeLevelLabels() {
    const side = this.flipped ? -1 : 1;
    for (const s of this.levelLabels) {
      const y = this.levelY(s.userData.level);
      const h = y / GAP; // 0 the bottom level … 4 the top
      s.position.set(-(3.9 + 0.35 * (4 - h)) * side, y + 0.1, (2 - h) * 1.15 * side);
    }
  }

  /** The default camera: from white's side (black's when flipped), a little to the right, above. */
  resetCamera() {
    const mid = 2 * GAP;
    const z = this.flipped ? -1 : 1;
    this.controls.target.set(0, mid + 0.3, 0);
    this.camera.position.set(6.5 * z, mid + 8.5, 15.5 * z);
    this.camera.up.set(0, 1, 0);
    this.controls.update();
    this.requestRender();
  }

  /** Key c: the default camera again (3D view shown, not typing in a field). */
  key(e) {
    if (e.key !== 'c' || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (document.body.dataset.view !== '3d' || this.container.hidden || !this.container.offsetParent) return;
    this.resetCamera();
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    // mirror the camera through the vertical axis: the same view from the other side
    const t = this.controls.target;
    const p = this.camera.position;
    p.set(2 * t.x - p.x, p.y, 2 * t.z - p.z);
    this.controls.update();
    this.placeLevelLabels();
  }

  /** opts as for renderLevels: {board, ruleset, flipped, marks}, and side (to move: for picking) */
  update({ board, ruleset = 'fiveup', flipped = false, marks = {}, side = null }) {
    this.board = board || null;
    this.marks = marks;
    this.side = side;
    if (ruleset !== this.ruleset) {
      this.flipped = flipped;
      this.layout(ruleset);
    } else {
      this.setFlipped(flipped);
    }
    for (const t of this.tiles) {
      const i = t.userData.cell;
      let color = COLORS[t.userData.parity];
      let opacity = t.userData.parity === 'light' ? 0.42 : 0.5;
      if (marks.pv && marks.pv.has(i)) { color = COLORS.pv; opacity = 0.8; }
      if (marks.last && marks.last.has(i)) { color = COLORS.last; opacity = 0.8; }
      if (marks.king === i || (marks.check && marks.check.has(i))) { color = COLORS.check; opacity = 0.85; }
      if (marks.premove && marks.premove.has(i)) { color = COLORS.premove; opacity = 0.85; }
      if (marks.selected === i) { color = COLORS.selected; opacity = 0.9; }
      if (marks.targets && marks.targets.has(i)) { color = COLORS.target; opacity = 0.9; }
      t.material.color.setHex(color);
      t.material.opacity = opacity;
    }
    for (let i = 0; i < 125; i++) {
      const p = board ? board[i] : null;
      let s = this.sprites.get(i);
      if (!p) {
        if (s) { this.scene.remove(s, s.userData.foot); this.sprites.delete(i); }
        continue;
      }
      const map = pieceTexture(p.color, p.letter);
      if (!s) {
        s = new THREE.Sprite(new THREE.SpriteMaterial({ map, transparent: true, alphaTest: 0.4 }));
        s.scale.set(PIECE, PIECE, 1);
        s.center.set(0.5, this.anchor);
        s.userData.cell = i;
        s.renderOrder = 1;
        s.userData.foot = footMesh();
        this.sprites.set(i, s);
        this.scene.add(s, s.userData.foot);
      } else if (s.material.map !== map) {
        s.material.map = map;
        s.material.needsUpdate = true;
      }
      const { level, rank, file } = coords(i);
      s.position.set(file - 2, this.levelY(level) + FOOT, 2 - rank);
      s.userData.foot.position.set(file - 2, this.levelY(level) + FOOT, 2 - rank);
    }
    this.drawArrows(marks.arrows || []);
    this.requestRender();
  }

  /** A point `lift` above the centre of a cell's tile. */
  cellPoint(cell, lift = 0) {
    const { level, rank, file } = coords(cell);
    return new THREE.Vector3(file - 2, this.levelY(level) + lift, 2 - rank);
  }

  /**
   * Arrows [{from, to, kind}] (cells; kind 'last', 'best' or 'pv') as a shaft and a head from the
   * middle of the piece on `from` to `to`, drawn over everything else; replaces the previous ones.
   */
  drawArrows(arrows) {
    for (const a of this.arrows.children) a.traverse((o) => { if (o.material) o.material.dispose(); });
    this.arrows.clear();
    for (const { from, to, kind } of arrows) {
      if (!(from >= 0 && from < 125 && to >= 0 && to < 125) || from === to) continue;
      this.arrows.add(arrowMesh(this.cellPoint(from, ARROW_LIFT), this.cellPoint(to, ARROW_LIFT), kind));
    }
  }

  /**
   * Pieces stand on their cells: a sprite's anchor (its position, just above the tile's centre) is
   * its bottom seen from the side and its middle seen from above, in between as the camera tilts
   * (half the squared sine of the tilt: near the bottom in the default camera), so that the disc's
   * foot touches its own tile from every angle. Cheap: run before each render and before any
   * screen position is computed.
   */
  syncAnchors() {
    this.camera.updateMatrixWorld();
    const dir = this.camera.getWorldDirection(new THREE.Vector3());
    const sin = Math.min(1, Math.max(0, -dir.y));
    const anchor = 0.5 * sin * sin;
    if (Math.abs(anchor - this.anchor) < 1e-4) return;
    this.anchor = anchor;
    for (const s of this.sprites.values()) s.center.set(0.5, anchor);
  }

  /** The world point drawn at the middle of an object: a sprite's centre (given its anchor), else its position. */
  drawnCentre(obj) {
    const p = obj.getWorldPosition(new THREE.Vector3());
    if (!obj.isSprite) return p;
    const up = new THREE.Vector3().setFromMatrixColumn(this.camera.matrixWorld, 1).normalize();
    return p.addScaledVector(up, (0.5 - obj.center.y) * obj.scale.y);
  }

  /** Client pixels of a world point. */
  toScreen(v) {
    const p = v.clone().project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
  }

  /** A sprite's box on the screen, client pixels {left, top, right, bottom} (for labels and pieces). */
  screenBox(sprite) {
    this.syncAnchors();
    const c = this.drawnCentre(sprite);
    const m = this.camera.matrixWorld;
    const up = new THREE.Vector3().setFromMatrixColumn(m, 1).normalize().multiplyScalar(sprite.scale.y / 2);
    const right = new THREE.Vector3().setFromMatrixColumn(m, 0).normalize().multiplyScalar(sprite.scale.x / 2);
    const a = this.toScreen(c.clone().sub(up).sub(right));
    const b = this.toScreen(c.clone().add(up).add(right));
    return { left: Math.min(a.x, b.x), right: Math.max(a.x, b.x), top: Math.min(a.y, b.y), bottom: Math.max(a.y, b.y) };
  }

  /** The screen boxes of the five level letters, index = level (A … E): for tests. */
  levelLabelBoxes() {
    return this.levelLabels.map((s) => ({ level: LEVELS[s.userData.level], ...this.screenBox(s) }));
  }

  /** Looks straight down on the board from the default distance (for tests and a quick overview). */
  topDown() {
    const t = this.controls.target;
    const d = this.camera.position.distanceTo(t);
    this.camera.position.set(t.x, t.y + d, t.z + (this.flipped ? -1e-3 : 1e-3));
    this.controls.update();
    this.requestRender();
  }

  /**
   * The cell under a click. Tiles are translucent and levels overlap on screen, so the nearest hit
   * is often not the cell meant: with a piece selected, its legal targets (tiles or pieces) and the
   * pieces of the side to move that lie under the pointer are preferred over anything in front of
   * them; without a selection, the pieces of the side to move. Among the preferred hits (or among
   * all hits when there is none) the one whose centre is drawn nearest the pointer wins, so a
   * click on a cell's centre picks that cell even where other cells overlap it (ties: targets first,
   * then the nearest along the ray).
   */
  pick(clientX, clientY) {
    this.syncAnchors();
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    const hits = this.raycaster.intersectObjects([...this.sprites.values(), ...this.tiles], false);
    if (!hits.length) return null;
    const marks = this.marks || {};
    const targets = marks.selected !== null && marks.selected !== undefined && marks.targets ? marks.targets : new Set();
    const board = this.board || [];
    const own = (h) => h.object.isSprite && !!this.side && board[h.object.userData.cell]?.color === this.side;
    const isTarget = (h) => targets.has(h.object.userData.cell);
    let pool = hits.filter((h) => isTarget(h) || own(h));
    if (!pool.length) pool = hits;
    const v = new THREE.Vector3();
    let best = null;
    let bestKey = null;
    pool.forEach((h, k) => {
      v.copy(this.drawnCentre(h.object)).project(this.camera);
      const px = Math.hypot(((v.x - ndc.x) * r.width) / 2, ((v.y - ndc.y) * r.height) / 2);
      // pixels, rounded to half a pixel so that exact centre clicks tie; then targets; then ray order
      const key = [Math.round(px * 2), isTarget(h) ? 0 : 1, k];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))) {
        best = h;
        bestKey = key;
      }
    });
    return best.object.userData.cell;
  }

  /** Screen position (client pixels) of a cell's centre: for tests and tooltips. */
  screenOf(cell) {
    this.syncAnchors();
    const s = this.sprites.get(cell);
    return this.toScreen(s ? this.drawnCentre(s) : this.cellPoint(cell));
  }

  /** Screen position (client pixels) of the middle of arrow k as drawn (for tests). */
  arrowMidpoint(k) {
    const a = this.arrows.children[k];
    return a ? this.toScreen(a.userData.mid) : null;
  }

  resize() {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  requestRender() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.render();
    });
  }

  render() {
    this.syncAnchors();
    this.renderer.render(this.scene, this.camera);
  }

  /** The colour [r, g, b] drawn at a client pixel, rendered now (for tests). */
  pixelAt(clientX, clientY) {
    this.render();
    const gl = this.renderer.getContext();
    const r = this.canvas.getBoundingClientRect();
    const x = Math.floor(((clientX - r.left) / r.width) * gl.drawingBufferWidth);
    const y = Math.floor(((r.bottom - clientY) / r.height) * gl.drawingBufferHeight);
    const px = new Uint8Array(4);
    gl.readPixels(x, y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return [px[0], px[1], px[2]];
  }

  /** Renders and counts pixels that differ from the background (a check that WebGL draws). */
  litPixels() {
    this.render();
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const bg = [(BG >> 16) & 255, (BG >> 8) & 255, BG & 255];
    let n = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (Math.abs(px[i] - bg[0]) + Math.abs(px[i + 1] - bg[1]) + Math.abs(px[i + 2] - bg[2]) > 24) n++;
    }
    return { lit: n, total: w * h };
  }
}
