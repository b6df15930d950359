// The rotatable 3D board: five stacked translucent levels of tiles, pieces as camera-facing
// sprites, labels for levels, files and ranks. Renders on demand (no animation loop).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { LEVELS, FILES, coords } from './util.js';

const GAP = 2.0; // height between levels
const COLORS = {
  light: 0xeadfc6, dark: 0x9a7f5d, target: 0x2fae66, selected: 0x3a7bd5,
  last: 0xe2bd3c, check: 0xe03c3c, pv: 0x8e6bd6,
};
const BG = 0x1d2330;

export function webglAvailable() {
  try {
    const c = document.createElement('canvas');
    return !!c.getContext('webgl2');
  } catch {
    return false;
  }
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

export class Board3D {
  constructor(container, onClick) {
    this.container = container;
    this.onClick = onClick;
    this.renderer = new THREE.WebGLRenderer({ antialias: true });
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
    for (let l = 0; l < 5; l++) {
      const y = this.levelY(l);
      for (const x of [-3.9, 3.9]) {
        const s = labelSprite(LEVELS[l], 0.8, '#ffd36b');
        s.position.set(x, y + 0.1, 0);
        this.labels.add(s);
      }
    }
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

  resetCamera() {
    const mid = 2 * GAP;
    const z = this.flipped ? -1 : 1;
    this.controls.target.set(0, mid + 0.3, 0);
    this.camera.position.set(6.5 * z, mid + 8.5, 15.5 * z);
    this.controls.update();
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    // mirror the camera through the vertical axis: the same view from the other side
    const t = this.controls.target;
    const p = this.camera.position;
    p.set(2 * t.x - p.x, p.y, 2 * t.z - p.z);
    this.controls.update();
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
      if (marks.selected === i) { color = COLORS.selected; opacity = 0.9; }
      if (marks.targets && marks.targets.has(i)) { color = COLORS.target; opacity = 0.9; }
      t.material.color.setHex(color);
      t.material.opacity = opacity;
    }
    for (let i = 0; i < 125; i++) {
      const p = board ? board[i] : null;
      let s = this.sprites.get(i);
      if (!p) {
        if (s) { this.scene.remove(s); this.sprites.delete(i); }
        continue;
      }
      const map = pieceTexture(p.color, p.letter);
      if (!s) {
        s = new THREE.Sprite(new THREE.SpriteMaterial({ map, transparent: true, alphaTest: 0.4 }));
        s.scale.set(0.72, 0.72, 1);
        s.userData.cell = i;
        s.renderOrder = 1;
        this.sprites.set(i, s);
        this.scene.add(s);
      } else if (s.material.map !== map) {
        s.material.map = map;
        s.material.needsUpdate = true;
      }
      const { level, rank, file } = coords(i);
      s.position.set(file - 2, this.levelY(level) + 0.42, 2 - rank);
    }
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
      v.copy(h.object.position).project(this.camera);
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
    const { level, rank, file } = coords(cell);
    const lift = this.sprites.has(cell) ? 0.42 : 0;
    const v = new THREE.Vector3(file - 2, this.levelY(level) + lift, 2 - rank).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
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
    this.renderer.render(this.scene, this.camera);
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
