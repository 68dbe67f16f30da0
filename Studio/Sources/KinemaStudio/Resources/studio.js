'use strict';
// Kinema Studio: the controls make a bake request; the answer (from /api/bake, the CLI's own
// code) is plotted, read out, played through its exported CSS and offered for export. The
// whole state is in the URL's hash, so a motion is shared as a link.

// Spring dialects as designers meet them: [field, label, min, max, default]. Fields are the
// API's (the CLI's flags in camelCase).
const dialects = [
  {id: 'swiftui', label: 'SwiftUI response/bounce',
   parameters: [['response', 'response (s)', 0.05, 2, 0.5], ['bounce', 'bounce', -0.9, 0.95, 0.3]]},
  {id: 'swiftui-duration', label: 'SwiftUI duration/bounce',
   parameters: [['response', 'duration (s)', 0.05, 2, 0.5], ['bounce', 'bounce', -0.9, 0.95, 0.3]]},
  {id: 'motion', label: 'Motion duration/bounce',
   parameters: [['motionDuration', 'duration (s)', 0.01, 10, 0.8], ['motionBounce', 'bounce', 0, 0.95, 0.25]]},
  {id: 'motion-visual', label: 'Motion visualDuration/bounce',
   parameters: [['motionVisualDuration', 'visualDuration (s)', 0.05, 3, 0.5],
                ['motionBounce', 'bounce', 0, 0.95, 0.25]]},
  {id: 'android', label: 'Android stiffness/damping ratio',
   parameters: [['stiffness', 'stiffness', 10, 3000, 1500], ['dampingRatio', 'damping ratio', 0.05, 2, 0.5]]},
  {id: 'core-animation', label: 'Core Animation mass/stiffness/damping',
   parameters: [['mass', 'mass', 0.1, 10, 1], ['stiffness', 'stiffness', 10, 3000, 100],
                ['damping', 'damping', 0, 60, 10]]},
  {id: 'rebound', label: 'Rebound tension/friction (Origami)',
   parameters: [['origamiTension', 'tension', 1, 200, 40], ['origamiFriction', 'friction', 1, 50, 7]]},
  {id: 'pop', label: 'POP bounciness/speed',
   parameters: [['bounciness', 'bounciness', 0, 20, 4], ['speed', 'speed', 0, 20, 12]]},
  {id: 'physics', label: 'tension/friction (k/m, c/m)',
   parameters: [['tension', 'tension', 10, 3000, 170], ['friction', 'friction', 0, 60, 26]]},
];
const otherParameters = {
  easing: [['duration', 'duration (s)', 0.1, 5, 1]],
  drop: [['height', 'height', 0.1, 10, 1], ['gravity', 'gravity', 1, 30, 9.81],
         ['restitution', 'restitution', 0, 0.95, 0.5]],
  // A scene's gravity and restitution are set in its text (every plane's and the contacts'):
  // the request sends the scene as edited.
  scene: [['duration', 'duration (s)', 0.1, 10, 3], ['pixelTolerance', 'tolerance (px)', 0.05, 5, 0.5],
          ['sceneGravity', 'gravity', 0, 30, 9.81], ['sceneRestitution', 'restitution', 0, 1, 0.8]],
};
const sceneOnly = ['sceneGravity', 'sceneRestitution'];
const tabs = [
  ['json', 'JSON', 'json', 'kinema.json'], ['css', 'CSS @keyframes', 'css', 'kinema.css'],
  ['css-linear', 'CSS linear()', 'css', 'kinema.css'], ['lottie', 'Lottie', 'lottie', 'kinema.lottie.json'],
  ['swift', 'Swift CAKeyframeAnimation', 'swift', 'KinemaAnimation.swift'],
  ['swiftui', 'SwiftUI KeyframeTrack', 'swiftui', 'KinemaKeyframes.swift'],
  ['retargetable', 'Retargetable (JSON)', 'retargetable', 'kinema-spring.json'],
  ['js', 'Retargetable (ES module)', 'js', 'kinema-spring.js'],
];
const $ = id => document.getElementById(id);
const state = {source: 'spring', dialect: 'swiftui', easing: 'ease-in-out', easingText: '', values: {},
               tolerance: 0.001, pinned: null, tab: 'css', sceneText: ''};
let answer = null, pinnedAnswer = null, sequence = 0, timer = null, catalog = null;

function parameters() {
  return state.source === 'spring' ? dialects.find(d => d.id === state.dialect).parameters
                                   : otherParameters[state.source];
}

// The API body for the current state.
function request(s = state) {
  const body = s.source === 'scene' ? {source: 'scene', scene: editedScene(s), drawPlanes: true}
                                    : {source: s.source, tolerance: s.tolerance};
  if (s.source === 'easing') body.easing = s.easingText.trim() || s.easing;
  const list = s.source === 'spring' ? dialects.find(d => d.id === s.dialect).parameters : otherParameters[s.source];
  for (const [field, , , , fallback] of list) {
    if (sceneOnly.includes(field)) continue;
    const value = s.values[field];
    body[field] = Number.isFinite(value) ? value : fallback;
  }
  return body;
}

// The scene's text as the sliders edit it: a gravity moved from the text's (along the
// scene's last axis, downward), a restitution moved from it (every plane's and the
// contacts'). Text the sliders leave alone, or that is not JSON, goes as it is (the server
// says where it is wrong).
function editedScene(s) {
  const scene = parsedScene(s.sceneText), read = sceneSettings(scene);
  if (!scene) return s.sceneText;
  const g = s.values.sceneGravity, e = s.values.sceneRestitution, d = scene.dimensions;
  const gravity = Number.isFinite(g) && g !== read.gravity && [2, 3].includes(d);
  const restitution = Number.isFinite(e) && e !== read.restitution;
  if (!gravity && !restitution) return s.sceneText;
  if (gravity) scene.gravity = Array.from({length: d}, (_, i) => i === d - 1 ? -g : 0);
  if (restitution) {
    for (const plane of Array.isArray(scene.planes) ? scene.planes : []) if (plane && typeof plane === 'object') plane.restitution = e;
    if (scene.contacts && typeof scene.contacts === 'object') scene.contacts.restitution = e;
  }
  return JSON.stringify(scene, null, 1);
}

function parsedScene(text) {
  try {
    const scene = JSON.parse(text);
    return scene && typeof scene === 'object' && !Array.isArray(scene) ? scene : null;
  } catch { return null; }
}

// The gravity's size and the contacts' (else the first plane's) restitution a scene has.
function sceneSettings(scene) {
  const gravity = Array.isArray(scene?.gravity) ? scene.gravity.filter(Number.isFinite) : [];
  const restitution = scene?.contacts?.restitution ?? scene?.planes?.[0]?.restitution;
  return {gravity: Math.hypot(...gravity), restitution: Number.isFinite(restitution) ? restitution : 1};
}

// The sliders set to the scene's text.
function readScene() {
  const scene = parsedScene(state.sceneText);
  if (!scene) return;
  const read = sceneSettings(scene);
  state.values.sceneGravity = read.gravity;
  state.values.sceneRestitution = read.restitution;
}

function pickExample(file) {
  const example = catalog.scenes.find(x => x.file === file) || catalog.scenes[0];
  state.sceneText = example.scene;
  state.values.duration = example.duration;
  readScene();
}

function buildParameters() {
  const box = $('parameters');
  box.textContent = '';
  for (const [field, label, min, max, fallback] of parameters()) {
    if (!Number.isFinite(state.values[field])) state.values[field] = fallback;
    const row = document.createElement('div');
    row.className = 'slider';
    row.innerHTML = `<label for="p-${field}">${label}</label><div class="inputs">` +
      `<input id="p-${field}" type="range" min="${min}" max="${max}" step="${(max - min) / 1000}">` +
      `<input id="n-${field}" type="number" step="any"></div>`;
    box.appendChild(row);
    const slider = row.querySelector('input[type=range]'), number = row.querySelector('input[type=number]');
    slider.value = number.value = state.values[field];
    slider.addEventListener('input', () => { number.value = slider.value; set(field, Number(slider.value)); });
    number.addEventListener('input', () => {
      if (number.value !== '' && Number.isFinite(Number(number.value))) {
        slider.value = number.value;
        set(field, Number(number.value));
      }
    });
  }
  $('spring-controls').hidden = state.source !== 'spring';
  $('easing-controls').hidden = state.source !== 'easing';
  const scene = state.source === 'scene';
  $('scene-controls').hidden = !scene;
  $('tolerance-row').hidden = $('compare-buttons').hidden = scene;
  if ($('scene-text').value !== state.sceneText) $('scene-text').value = state.sceneText;
}

function set(field, value) { state.values[field] = value; changed(); }

// A change: the URL first, the bake after the controls rest for 80 ms.
function changed() {
  writeURL();
  clearTimeout(timer);
  timer = setTimeout(bake, 80);
}

async function post(body) {
  const response = await fetch('/api/bake', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                             body: JSON.stringify(body)});
  const json = await response.json();
  if (!response.ok) throw new Error(json.error || `the server answered ${response.status}`);
  return json;
}

async function bake() {
  const mine = ++sequence;
  try {
    const result = await post(request());
    if (mine !== sequence) return;
    answer = result;
    $('error').textContent = '';
    render();
    window.dispatchEvent(new CustomEvent('kinema-answer', {detail: answer}));  // the playground's
  } catch (error) {
    if (mine === sequence) $('error').textContent = error.message;
  }
}

function format(x, digits = 4) { return Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : '–'; }

function render() {
  const scene = !!answer.bodies;
  for (const id of ['plot', 'plot-legend', 'stage']) $(id).hidden = scene;
  $('scene-view').hidden = !scene;
  $('bytes').textContent = scene
    ? ['css', 'lottie', 'json'].map(f => `${f.toUpperCase()} ${answer.bytes[f].toLocaleString('en')}`).join(' · ')
    : '–';
  if (scene) {
    $('keyframes').textContent = `${answer.keyframes} (${answer.bodies.length} bodies)`;
    $('max-error').textContent = format(answer.maxError, 3) + ' px';
    $('settling').textContent = '–';
    $('duration-readout').textContent = format(answer.duration) + ' s';
    $('dialects').hidden = true;
    playScene();
    showExport();
    return;
  }
  $('keyframes').textContent = answer.keyframes;
  $('max-error').textContent = format(answer.maxError, 3);
  $('settling').textContent = format(answer.settlingTime) + ' s';
  $('duration-readout').textContent = format(answer.duration) + ' s';
  if (pinnedAnswer) {
    $('keyframes').textContent += ` (pinned ${pinnedAnswer.keyframes})`;
    $('settling').textContent += ` (pinned ${format(pinnedAnswer.settlingTime)} s)`;
  }
  renderDialects();
  plot();
  play();
  showExport();
}

function renderDialects() {
  const table = $('dialects'), body = table.querySelector('tbody');
  body.textContent = '';
  table.hidden = !answer.spring;
  if (!answer.spring) return;
  for (const [name, value] of Object.entries(answer.spring)) {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = typeof value === 'number' ? format(value, 6) : (value ?? '–');
  }
}

function svg(tag, attributes) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
  return element;
}

function plot() {
  const plot = $('plot');
  plot.textContent = '';
  const left = 52, right = 12, top = 14, height = 230, errorTop = 280, errorHeight = 60, width = 640 - left - right;
  const runs = [answer].concat(pinnedAnswer ? [pinnedAnswer] : []);
  const end = Math.max(...runs.map(r => r.duration));
  const values = runs.flatMap(r => r.curve.motion.concat(r.curve.keyframed)).filter(Number.isFinite);
  let low = Math.min(...values), high = Math.max(...values);
  if (!(high > low)) { low -= 1; high += 1; }
  const x = t => left + width * t / end, y = v => top + height * (1 - (v - low) / (high - low));
  const line = (ts, vs) => ts.map((t, i) => `${i ? 'L' : 'M'}${x(t).toFixed(2)},${y(vs[i]).toFixed(2)}`).join('');
  plot.appendChild(svg('rect', {x: left, y: top, width, height, fill: 'none', stroke: '#d9dee5'}));
  for (const [v, label] of [[low, format(low, 3)], [high, format(high, 3)]]) {
    const text = svg('text', {x: left - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#5d6673'});
    text.textContent = label;
    plot.appendChild(text);
  }
  const axis = svg('text', {x: left + width, y: top + height + 16, 'text-anchor': 'end', 'font-size': 11, fill: '#5d6673'});
  axis.textContent = `${format(end)} s`;
  plot.appendChild(axis);
  if (pinnedAnswer) {
    plot.appendChild(svg('path', {d: line(pinnedAnswer.curve.t, pinnedAnswer.curve.motion), fill: 'none',
                                  stroke: '#8a8f98', 'stroke-width': 2, 'stroke-dasharray': '6 4', id: 'pinned-curve'}));
  }
  plot.appendChild(svg('path', {d: line(answer.curve.t, answer.curve.motion), fill: 'none', stroke: '#2456c9',
                                'stroke-width': 2.5, id: 'motion-curve'}));
  plot.appendChild(svg('path', {d: line(answer.curve.t, answer.curve.keyframed), fill: 'none', stroke: '#d2462d',
                                'stroke-width': 1.5, 'stroke-dasharray': '4 3', id: 'keyframed-curve'}));
  answer.knots.t.forEach((t, i) => plot.appendChild(
    svg('circle', {cx: x(t), cy: y(answer.knots.value[i]), r: 3.5, fill: '#d2462d', class: 'knot'})));
  // The error strip: |motion − keyframes| scaled to its own height, labelled with the max.
  const errors = answer.curve.motion.map((v, i) => Math.abs(v - answer.curve.keyframed[i]));
  const scale = Math.max(answer.maxError, ...errors.filter(Number.isFinite)) || 1;
  plot.appendChild(svg('line', {x1: left, x2: left + width, y1: errorTop + errorHeight, y2: errorTop + errorHeight,
                                stroke: '#d9dee5'}));
  plot.appendChild(svg('path', {
    d: answer.curve.t.map((t, i) => `${i ? 'L' : 'M'}${x(t).toFixed(2)},${(errorTop + errorHeight * (1 - errors[i] / scale)).toFixed(2)}`).join(''),
    fill: 'none', stroke: '#2f9b63', 'stroke-width': 1.5, id: 'error-curve'}));
  const label = svg('text', {x: left - 6, y: errorTop + 8, 'text-anchor': 'end', 'font-size': 11, fill: '#2f9b63'});
  label.textContent = format(scale, 2);
  plot.appendChild(label);
}

// The motion played by the exported CSS itself: its @property, @keyframes and classes.
function play() {
  if (answer.bodies) return playScene();
  const css = answer.exports.css;
  $('exported').textContent = css;
  const property = (css.match(/@property (--[\w-]+)/) || [])[1];
  const classes = css.split('\n').filter(l => l.startsWith('.') && l.includes('animation:')).map(l => l.split(' ')[0].slice(1));
  const values = answer.curve.motion.filter(Number.isFinite);
  const reach = Math.max(...values.map(Math.abs)) || 1;
  const pixels = Math.max(100, $('stage').clientWidth - 140);
  const balls = [[$('ball'), classes[0]], [$('ball-linear'), classes[1]]];
  for (const [ball] of balls) {
    ball.className = 'ball';
    ball.style.transform = property ? `translateX(calc(var(${property}) * ${pixels / reach}px))` : '';
  }
  // One style pass for both, then both classes in the same task: the two animations start on
  // the same frame (scripts/check-studio.py checks it).
  void $('stage').offsetWidth;
  for (const [ball, cls] of balls) if (cls) ball.classList.add(cls);
}

// The scene played by its exported CSS: the stylesheet as written, each body's rule, then each
// plane's, given a selector of this page's (a name need not be a class name the page can write).
function playScene() {
  const stage = $('scene-stage');
  stage.textContent = '';
  let rule = 0;
  const bodies = answer.bodies.length;
  const css = answer.exports.css.split('\n').map(line => {
    if (!line.startsWith('.kinema-') || line.startsWith('.kinema-scene ')) return line;
    const k = rule++, selector = k < bodies ? `[data-body="${k}"]` : `[data-plane="${k - bodies}"]`;
    return `#scene-stage > ${selector}` + line.slice(line.indexOf(' {'));
  }).join('\n');
  $('exported').textContent = css;
  stage.style.width = `${answer.canvas.width}px`;
  stage.style.height = `${answer.canvas.height}px`;
  const drawn = [...answer.bodies.map((b, i) => ['body', i, b.name]), ...answer.planes.map((name, i) => ['plane', i, name])];
  for (const [kind, i, name] of drawn) {
    const element = document.createElement('div');
    element.dataset[kind] = i;
    element.title = name;
    stage.appendChild(element);
  }
}

function exportText(tab) {
  const [, , format] = tabs.find(t => t[0] === tab);
  const text = answer.exports[format] ?? '(retargetable exports are for springs)';
  if (tab === 'css' || tab === 'css-linear') {
    const at = text.indexOf('/* linear()');
    if (at >= 0) return tab === 'css' ? text.slice(0, at) : text.slice(at);
  }
  return text;
}

function showExport() {
  for (const button of $('tabs').children) button.setAttribute('aria-selected', button.dataset.tab === state.tab);
  $('export-text').value = answer ? exportText(state.tab) : '';
}

function download() {
  const [, , format, name] = tabs.find(t => t[0] === state.tab);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([answer.exports[format]], {type: 'text/plain'}));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

async function copy() {
  const text = $('export-text').value;
  try { await navigator.clipboard.writeText(text); } catch {
    $('export-text').select();
    document.execCommand('copy');
  }
}

// ---- the URL's hash holds the state ----

function writeURL() {
  const query = new URLSearchParams({source: state.source, tolerance: state.tolerance, tab: state.tab});
  if (state.source === 'spring') query.set('dialect', state.dialect);
  if (state.source === 'easing') query.set('easing', state.easingText.trim() || state.easing);
  if (state.source === 'scene') query.set('scene', state.sceneText);
  for (const [field] of parameters()) query.set(field, state.values[field]);
  if (state.pinned) query.set('pinned', JSON.stringify(state.pinned));
  history.replaceState(null, '', '#' + query.toString());
}

function readURL() {
  const query = new URLSearchParams(location.hash.slice(1));
  if (['spring', 'easing', 'drop', 'scene'].includes(query.get('source'))) state.source = query.get('source');
  if (query.has('scene')) state.sceneText = query.get('scene');
  if (dialects.some(d => d.id === query.get('dialect'))) state.dialect = query.get('dialect');
  if (query.has('easing')) {
    const name = query.get('easing');
    if ([...$('easing').options].some(o => o.value === name)) state.easing = name; else state.easingText = name;
  }
  const tolerance = Number(query.get('tolerance'));
  if (query.has('tolerance') && tolerance > 0) state.tolerance = tolerance;
  if (tabs.some(t => t[0] === query.get('tab'))) state.tab = query.get('tab');
  for (const [key, value] of query) {
    if (!['source', 'dialect', 'easing', 'tolerance', 'tab', 'pinned', 'scene'].includes(key) && Number.isFinite(Number(value)))
      state.values[key] = Number(value);
  }
  try { state.pinned = query.has('pinned') ? JSON.parse(query.get('pinned')) : null; } catch { state.pinned = null; }
}

function syncControls() {
  $('source').value = state.source;
  $('dialect').value = state.dialect;
  $('easing').value = state.easing;
  $('easing-text').value = state.easingText;
  $('tolerance').value = Math.log10(state.tolerance);
  $('tolerance-number').value = state.tolerance;
  $('clear-compare').hidden = !state.pinned;
  buildParameters();
}

async function loadPinned() {
  pinnedAnswer = null;
  $('clear-compare').hidden = !state.pinned;
  if (!state.pinned) return;
  try { pinnedAnswer = await post(state.pinned); } catch (error) { $('error').textContent = 'pinned: ' + error.message; }
}

async function start() {
  catalog = await (await fetch('/api/catalog')).json();
  for (const name of catalog.easings) $('easing').add(new Option(name, name));
  for (const x of catalog.scenes) $('scene-example').add(new Option(x.label, x.file));
  for (const d of dialects) $('dialect').add(new Option(d.label, d.id));
  for (const [id, label] of tabs) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.dataset.tab = id;
    button.setAttribute('role', 'tab');
    button.addEventListener('click', () => { state.tab = id; writeURL(); showExport(); });
    $('tabs').appendChild(button);
  }
  readURL();
  if (!state.sceneText) pickExample(catalog.scenes[0].file);
  syncControls();
  $('source').addEventListener('change', () => { state.source = $('source').value; buildParameters(); changed(); });
  $('scene-example').addEventListener('change', () => { pickExample($('scene-example').value); buildParameters(); changed(); });
  $('scene-text').addEventListener('input', () => { state.sceneText = $('scene-text').value; readScene(); buildParameters(); changed(); });
  $('dialect').addEventListener('change', () => { state.dialect = $('dialect').value; buildParameters(); changed(); });
  $('easing').addEventListener('change', () => { state.easing = $('easing').value; state.easingText = ''; $('easing-text').value = ''; changed(); });
  $('easing-text').addEventListener('input', () => { state.easingText = $('easing-text').value; changed(); });
  $('tolerance').addEventListener('input', () => {
    state.tolerance = Number(Math.pow(10, Number($('tolerance').value)).toPrecision(3));
    $('tolerance-number').value = state.tolerance;
    changed();
  });
  $('tolerance-number').addEventListener('input', () => {
    const value = Number($('tolerance-number').value);
    if (value > 0) { state.tolerance = value; $('tolerance').value = Math.log10(value); changed(); }
  });
  $('compare').addEventListener('click', async () => {
    state.pinned = request();
    writeURL();
    await loadPinned();
    if (answer) render();
  });
  $('clear-compare').addEventListener('click', () => { state.pinned = null; pinnedAnswer = null; writeURL(); syncControls(); if (answer) render(); });
  $('play').addEventListener('click', play);
  $('copy').addEventListener('click', copy);
  $('download').addEventListener('click', download);
  window.addEventListener('hashchange', async () => { readURL(); syncControls(); await loadPinned(); bake(); });
  writeURL();
  await loadPinned();
  await bake();
}

start();
