// kinema-spring.js: plays a spring baked by `kinema keyframes --retargetable` on an element, and
// retargets it mid-flight or hands it a gesture's velocity with position and velocity kept.
// No dependencies.
//
// A spring is linear, so the element shows its target plus offsets that each end at 0: a target
// moved from A to B adds (B - A)(s(t) - 1), a release at velocity v adds v g(t), where s and g
// are the spring's step and impulse responses baked once. Each offset is a Web Animation
// composited with 'add' on the target, set as the element's own value; an offset that has ended
// adds 0 and is dropped, so only offsets still moving are held, however long the page runs.

/** The baked response `r` at `t` seconds: [value, slope per second]. */
function evaluate(r, t) {
  const n = r.values.length, u = t / r.duration;
  if (!(u < 1)) return [r.values[n - 1], 0];
  if (!(u > 0)) return [r.values[0], 0];
  let i = 0, j = n - 1;
  while (j - i > 1) {
    const m = (i + j) >> 1;
    if (r.keyTimes[m] <= u) i = m; else j = m;
  }
  const [x1, y1, x2, y2] = r.timingFunctions[i], k = r.keyTimes[j] - r.keyTimes[i];
  const b = (s, p, q) => 3 * (1 - s) * (1 - s) * s * p + 3 * (1 - s) * s * s * q + s * s * s;
  const db = (s, p, q) => 3 * (1 - s) * (1 - s) * p + 6 * (1 - s) * s * (q - p) + 3 * s * s * (1 - q);
  const x = (u - r.keyTimes[i]) / k;
  let lo = 0, hi = 1, s = x;
  for (let it = 0; it < 60; it++) {
    s = (lo + hi) / 2;
    if (b(s, x1, x2) < x) lo = s; else hi = s;
  }
  const dv = r.values[j] - r.values[i], dx = db(s, x1, x2);
  return [r.values[i] + dv * b(s, y1, y2), dx > 0 ? (dv * db(s, y1, y2)) / dx / (k * r.duration) : 0];
}

export class RetargetableSpring {
  /**
   * @param element the element whose `property` the spring moves.
   * @param responses what `kinema keyframes --spring ... --retargetable` writes (JSON).
   * @param options `property` (default '--value', registered as a number), `unit` (default ''
   *   for a custom property, 'px' otherwise), `value` (where it starts, default 0),
   *   `reducedMotion` (default: the `prefers-reduced-motion: reduce` media query).
   */
  constructor(element, responses, options = {}) {
    this.element = element;
    this.responses = responses;
    this.property = options.property ?? '--value';
    this.unit = options.unit ?? (this.property.startsWith('--') ? '' : 'px');
    this.reducedMotion = options.reducedMotion ?? matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.layers = [];
    if (this.property.startsWith('--')) {
      try {
        CSS.registerProperty({ name: this.property, syntax: this.unit ? '<length>' : '<number>', inherits: false,
          initialValue: '0' + this.unit });
      } catch (e) { /* registered already */ }
    }
    this.set(options.value ?? 0);
  }

  /** Where the spring is heading (or the value `set` last showed). */
  get target() { return this._target; }

  /** The offsets still moving: one Web Animation each. */
  get animationCount() { return this._prune(this._now()).length; }

  /** Shows `value` at once and holds it (a frame of a drag): every offset is dropped. */
  set(value) {
    for (const layer of this.layers) layer.animation.cancel();
    this.layers = [];
    this._show(value);
  }

  /** Heads for `to` from wherever the element is, at the velocity it has. */
  retarget(to) {
    const now = this._now();
    this._prune(now);
    const delta = to - this._target;
    this._show(to);
    if (delta !== 0) this._add(this.reducedMotion ? 'reduced' : 'step', delta, 1, now);
  }

  /**
   * Hands the element over to the spring at `velocity` (units per second, a gesture's at its
   * release), heading for `to` (default: the target). Under reduced motion the velocity is not
   * handed over: a flick would overshoot.
   */
  release(velocity, to = this._target) {
    const now = this._now(), kick = velocity - this.velocity(now);
    this.retarget(to);
    if (!this.reducedMotion && kick !== 0) this._add('impulse', kick, 0, now);
  }

  /** The value the element shows at `time` (ms on the document timeline, default now). */
  value(time = this._now()) {
    return this.layers.reduce((x, l) => x + l.scale * (evaluate(l.response, (time - l.start) / 1000)[0] - l.end),
      this._target);
  }

  /** Its velocity in units per second at `time`, from the baked curves' slopes. */
  velocity(time = this._now()) {
    return this.layers.reduce((v, l) => v + l.scale * evaluate(l.response, (time - l.start) / 1000)[1], 0);
  }

  _now() { return document.timeline.currentTime ?? performance.now(); }

  _show(value) {
    this._target = value;
    this.element.style.setProperty(this.property, value + this.unit);
  }

  // An offset scale (r(t) - end): it starts at scale (r(0) - end) and ends at 0.
  _add(name, scale, end, now) {
    const response = this.responses[name];
    const keyframes = response.values.map((v, i) => {
      const frame = { offset: response.keyTimes[i], [this.property]: scale * (v - end) + this.unit };
      const f = response.timingFunctions[i];
      if (f) frame.easing = `cubic-bezier(${f.join(',')})`;
      return frame;
    });
    const animation = this.element.animate(keyframes, { duration: response.duration * 1000, composite: 'add' });
    animation.startTime = now;
    this.layers.push({ animation, response, scale, end, start: now });
  }

  // Drops the offsets that have ended by `time`: each adds 0 from then on.
  _prune(time) {
    this.layers = this.layers.filter((l) => {
      const live = time - l.start < l.response.duration * 1000;
      if (!live) l.animation.cancel();
      return live;
    });
    return this.layers;
  }
}
