// The retargeting playground, an ES module: the spring's retargetable export played by
// kinema-spring.js on a ball that a click retargets and a drag throws, drawn against the spring in
// closed form restarted at every retarget from the position and velocity it had.
import { RetargetableSpring } from '/kinema-spring.js';

const $ = id => document.getElementById(id);
const history = [];  // [time ms, played px, closed form px]
let spring = null, closed = null, tolerance = 0.001, drag = null;

// x'' = −(k/m)(x − target) − (c/m)x' from (x0, v0) at t0 (ms).
class ClosedForm {
  constructor({mass, stiffness, damping}) { this.w2 = stiffness / mass; this.l = damping / (2 * mass); }
  start(t0, x0, v0, target) { Object.assign(this, {t0, x0, v0, target}); }
  state(time) {
    const t = (time - this.t0) / 1000, u0 = this.x0 - this.target, {l, w2, v0} = this, e = Math.exp(-l * t);
    if (w2 > l * l) {
      const wd = Math.sqrt(w2 - l * l), b = (v0 + l * u0) / wd, c = Math.cos(wd * t), s = Math.sin(wd * t);
      return [this.target + e * (u0 * c + b * s), e * ((b * wd - l * u0) * c - (u0 * wd + l * b) * s)];
    }
    if (w2 === l * l) { const b = v0 + l * u0; return [this.target + e * (u0 + b * t), e * (b - l * (u0 + b * t))]; }
    const r = Math.sqrt(l * l - w2), r1 = -l + r, r2 = -l - r, a2 = (v0 - r1 * u0) / (r2 - r1), a1 = u0 - a2;
    return [this.target + a1 * Math.exp(r1 * t) + a2 * Math.exp(r2 * t),
            a1 * r1 * Math.exp(r1 * t) + a2 * r2 * Math.exp(r2 * t)];
  }
}

const now = () => document.timeline.currentTime;
const played = () => parseFloat(getComputedStyle($('pg-ball')).translate) || 0;

// A new spring takes over the ball where it is, at the velocity it has, toward its target;
// a bake of the same spring changes nothing.
let baked = null;
window.addEventListener('kinema-answer', ({detail: answer}) => {
  $('playground').hidden = !answer.exports.retargetable;
  if (!answer.exports.retargetable || answer.exports.retargetable === baked) return;
  baked = answer.exports.retargetable;
  const responses = JSON.parse(baked), t = now();
  const [x, v] = closed ? closed.state(t) : [0, 0], target = spring ? spring.target : 0;
  spring?.set(x);
  spring = new RetargetableSpring($('pg-ball'), responses, {property: 'translate', value: x, reducedMotion: false});
  closed = new ClosedForm(responses.spring);
  closed.start(t, x, v, target);
  if (v !== 0 || x !== target) spring.release(v, target);
  tolerance = responses.tolerance;
});

function retarget(to) {
  const t = now(), [x, v] = closed.state(t);
  spring.retarget(to);
  closed.start(t, x, v, to);
}

$('pg-track').addEventListener('pointerdown', event => {
  if (!spring || event.target === $('pg-ball')) return;
  retarget(event.clientX - $('pg-track').getBoundingClientRect().left - 10);
});
// A grab holds the ball where it is; the drag moves it; the release throws it home with the
// pointer's velocity over its last moves.
$('pg-ball').addEventListener('pointerdown', event => {
  if (!spring) return;
  $('pg-ball').setPointerCapture(event.pointerId);
  const x = played();
  drag = {home: spring.target, offset: event.clientX - x, x, samples: [[event.timeStamp, x]]};
  spring.set(x);
  closed.start(now(), x, 0, x);
});
$('pg-ball').addEventListener('pointermove', event => {
  if (!drag) return;
  drag.x = event.clientX - drag.offset;
  spring.set(drag.x);
  closed.start(now(), drag.x, 0, drag.x);
  drag.samples.push([event.timeStamp, drag.x]);
  if (drag.samples.length > 5) drag.samples.shift();
});
$('pg-ball').addEventListener('pointerup', () => {
  if (!drag) return;
  const s = drag.samples, [t0, x0] = s[0], [t1, x1] = s[s.length - 1];
  const velocity = t1 > t0 ? (x1 - x0) / (t1 - t0) * 1000 : 0;
  spring.release(velocity, drag.home);
  closed.start(now(), drag.x, velocity, drag.home);
  drag = null;
});

// Every frame: the played value against the closed form, the last 3 s drawn.
function frame() {
  requestAnimationFrame(frame);
  if (!spring) return;
  const t = now();
  history.push([t, played(), closed.state(t)[0]]);
  while (history.length && history[0][0] < t - 3000) history.shift();
  const values = history.flatMap(h => [h[1], h[2]]), low = Math.min(...values), high = Math.max(...values);
  const travel = Math.max(high - low, 1), y = v => 110 - 100 * (v - low) / travel;
  const x = time => 640 * (1 - (t - time) / 3000);
  const path = k => history.map((h, i) => `${i ? 'L' : 'M'}${x(h[0]).toFixed(1)},${y(h[k]).toFixed(1)}`).join('');
  $('pg-plot').innerHTML = `<path id="pg-closed" d="${path(2)}" fill="none" stroke="#2456c9" stroke-width="3"/>`
    + `<path id="pg-played" d="${path(1)}" fill="none" stroke="#d2462d" stroke-width="1.5"/>`;
  const worst = Math.max(...history.map(h => Math.abs(h[1] - h[2])));
  $('pg-count').textContent = spring.animationCount;
  $('pg-error').textContent = `${worst.toFixed(2)} px (${(worst / travel).toExponential(1)} of the travel; `
    + `tolerance ${tolerance})`;
}
requestAnimationFrame(frame);
window.playground = {history, get spring() { return spring; }};
