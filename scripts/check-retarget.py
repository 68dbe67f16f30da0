#!/usr/bin/env python3
"""Plays kinema-spring.js in headless Chromium and compares the element with the closed form.

For SwiftUI's, Motion's and Android's spring dialects, `kinema keyframes --retargetable --format js`
is loaded into a page (headless Chromium under virtual time: frames at 60 Hz, as fast as it can draw them) that
starts the spring toward 300, retargets it three times at random moments, grabs it for a few frames
and releases it with the finger's velocity. The animated custom property is read back with
getComputedStyle at every frame and compared with the retargeted spring computed here in closed form,
piece by piece (position and velocity carried across each retarget): nothing of Kinema's is used for
the expected values, only the dialects' published formulas.

Checks, per dialect:
- every frame within the error bound: tolerance × the sum of the moves' sizes (each offset's error
  scales with its size) plus tolerance × the release velocity × the impulse response's range;
- the velocity by finite differences has no jump at a retarget beyond what that bound allows;
- after 1,000 retargets at random moments the page holds no more animations than offsets still
  moving, and the bound still holds;
- the module is under 3 KB gzip-ed (as written, comments included) and imports nothing.

Usage: check-retarget.py KINEMA_BINARY
"""
import gzip
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TOLERANCE = 1e-3
SLACK = 1e-4  # getComputedStyle's serialization of a number (6 significant digits of values ≤ 1,000)
FRAME = 1000 / 60

# (name, dialect flags, (mass, stiffness, damping) from the dialect's own published formulas)
def swiftui(response, bounce):  # SwiftUI Spring(duration:bounce:): ω = 2π/duration, ζ = 1 − bounce
    w = 2 * math.pi / response
    return 1.0, w * w, 2 * (1 - bounce) * w

def motion(visual_duration, bounce):  # Motion: ω = 2π/(1.2·visualDuration), ζ = 1 − bounce
    w = 2 * math.pi / (1.2 * visual_duration)
    return 1.0, w * w, 2 * (1 - bounce) * w

def android(stiffness, ratio):  # Android SpringForce: unit mass, damping = 2ζ√k
    return 1.0, stiffness, 2 * ratio * math.sqrt(stiffness)

DIALECTS = [
    ("SwiftUI response 0.5, bounce 0.3", ["--response", "0.5", "--bounce", "0.3"], swiftui(0.5, 0.3)),
    ("Motion visualDuration 0.4, bounce 0.25", ["--motion-visual-duration", "0.4", "--motion-bounce", "0.25"],
     motion(0.4, 0.25)),
    ("Android stiffness 200, damping ratio 0.5", ["--stiffness", "200", "--damping-ratio", "0.5"],
     android(200, 0.5)),
]


class Spring:
    """x'' = −(k/m)(x − target) − (c/m)x', in closed form from the state at `t0`."""

    def __init__(self, m, k, c):
        self.w2, self.l = k / m, c / (2 * m)

    def start(self, t0, x, v, target):
        self.t0, self.x0, self.v0, self.target = t0, x, v, target

    def state(self, t):
        t, u0, v0, l, w2 = t - self.t0, self.x0 - self.target, self.v0, self.l, self.w2
        e = math.exp(-l * t)
        if w2 > l * l:
            wd = math.sqrt(w2 - l * l)
            b = (v0 + l * u0) / wd
            cs, sn = math.cos(wd * t), math.sin(wd * t)
            u = e * (u0 * cs + b * sn)
            v = e * ((b * wd - l * u0) * cs - (u0 * wd + l * b) * sn)
        elif w2 == l * l:
            b = v0 + l * u0
            u, v = e * (u0 + b * t), e * (b - l * (u0 + b * t))
        else:
            r = math.sqrt(l * l - w2)
            r1, r2 = -l + r, -l - r
            a2 = (v0 - r1 * u0) / (r2 - r1)
            a1 = u0 - a2
            u = a1 * math.exp(r1 * t) + a2 * math.exp(r2 * t)
            v = a1 * r1 * math.exp(r1 * t) + a2 * r2 * math.exp(r2 * t)
        return self.target + u, v


def expected(params, events, times):
    """The closed-form value at each frame time, the events (time in ms, kind, value) applied in order."""
    spring = Spring(*params)
    spring.start(0, 0.0, 0.0, 0.0)
    held, out, i = None, [], 0
    for t in times:
        while i < len(events) and events[i][0] <= t:
            at, kind, value = events[i][:3]
            x, v = (held, 0.0) if held is not None else spring.state(at / 1000)
            if kind == "retarget":
                spring.start(at / 1000, x, v, value)
            elif kind == "set":
                held = value
            elif kind == "release":
                spring.start(at / 1000, held, value, events[i][3])
                held = None
            i += 1
        out.append(held if held is not None else spring.state(t / 1000)[0])
    return out


PAGE_SCRIPT = """
const el = document.getElementById('box');
const plan = %(plan)s;
const spring = new RetargetableSpring(el, responses, { property: '--x', value: 0 });
const frames = [], events = [];
let origin = null, last = null, step = 0, maxAnimations = 0, warmup = 10;
// Each new frame of the document timeline (headless Chromium's virtual time runs timers, and
// frames at 60 Hz, but no requestAnimationFrame callbacks): the plan's calls due by then, then
// the value the frame shows. The plan starts after a few frames: a loaded machine can hold the
// first frames back by a second, and every early call would then land in one frame.
function tick() {
  const now = document.timeline.currentTime;
  if (now !== null && now !== last) {
    last = now;
    if (origin === null && --warmup > 0) { setTimeout(tick, 4); return; }
    if (origin === null) origin = now;
    const t = now - origin;
    while (step < plan.length && plan[step][0] <= t) {
      const [_, kind, value, to] = plan[step++];
      if (kind === 'retarget') spring.retarget(value);
      else if (kind === 'set') spring.set(value);
      else spring.release(value, to);
      events.push([t, kind, value, to]);
    }
    const shown = parseFloat(getComputedStyle(el).getPropertyValue('--x'));
    const count = el.getAnimations().length;
    maxAnimations = Math.max(maxAnimations, count);
    frames.push([t, shown, count]);
    if (step >= plan.length && t >= plan[plan.length - 1][0] + 1500) {
      document.getElementById('out').textContent = JSON.stringify({ frames, events, maxAnimations });
      return;
    }
  }
  setTimeout(tick, 4);
}
tick();
"""


def play(browser, module, plan, workdir, name, budget_ms, punctual=False, attempts=3):
    """The page's frames and the calls it made. `punctual`: every call within two frames of its
    planned time (a velocity check across a retarget needs the frames around it); a page whose
    frames stalled is played again."""
    page = os.path.join(workdir, f"{name}.html")
    with open(page, "w") as f:
        f.write("<!doctype html><html><body><div id='box'></div><pre id='out'></pre>"
                f"<script type='module'>{module}\n{PAGE_SCRIPT % {'plan': json.dumps(plan)}}</script></body></html>")
    for attempt in range(attempts):
        result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                 f"--virtual-time-budget={budget_ms}", "--dump-dom", "file://" + page],
                                capture_output=True, text=True, timeout=600)
        match = re.search(r'<pre id="out">(.*?)</pre>', result.stdout, re.S)
        if result.returncode != 0 or not match or not match.group(1):
            sys.exit(f"check-retarget: {name}: Chromium did not finish the page: {result.stderr.strip()[-300:]}")
        played = json.loads(match.group(1).replace("&quot;", '"'))
        late = max(e[0] - p[0] for e, p in zip(played["events"], plan))
        if not punctual or late <= 2 * FRAME:
            return played
    sys.exit(f"check-retarget: {name}: Chromium's frames stalled in {attempts} plays (a call {late:.0f} ms late); "
             "the velocity across a retarget cannot be checked")


def plan_gesture(rng):
    """Toward 300, three retargets at random moments, a grab of 8 frames, a release toward 300."""
    plan, t = [[0, "retarget", 300.0, None]], 0.0
    for _ in range(3):
        t += rng.uniform(80, 600)
        plan.append([t, "retarget", rng.uniform(-200, 500), None])
    t += rng.uniform(80, 600)
    start, velocity = None, rng.uniform(-1500, 1500)
    for k in range(8):
        plan.append([t + k * FRAME, "set", None, None])  # the finger's position, filled in below
    plan.append([t + 8 * FRAME, "release", velocity, 300.0])
    return plan, t, velocity


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    kinema = sys.argv[1]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("check-retarget: Chromium is not installed (Debian: apt-get install chromium)")
    source = os.path.join(os.path.dirname(__file__), "..", "Sources", "KinemaCLI", "Resources", "kinema-spring.js")
    player = open(source, encoding="utf-8").read()
    size = len(gzip.compress(player.encode(), 9))
    passed = True
    if size >= 3072 or re.search(r"^\s*import\b", player, re.M):
        print(f"FAIL kinema-spring.js: {size} bytes gzip-ed (at most 3,072) or it imports something")
        passed = False
    else:
        print(f"ok   kinema-spring.js: {size} bytes gzip-ed with its comments, no imports")
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as workdir:
        for index, (name, flags, params) in enumerate(DIALECTS):
            result = subprocess.run([kinema, "keyframes", "--spring", *flags, "--retargetable", "--format", "js",
                                     "--tolerance", repr(TOLERANCE)], capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"check-retarget: kinema keyframes failed: {result.stderr.strip()}")
            module = result.stdout
            responses = json.loads(module.split("export const responses = ", 1)[1].rstrip().rstrip(";"))
            impulse_range = 0.0
            for r in [responses["impulse"]]:
                impulse_range = max(r["values"]) - min(r["values"])
            # The gesture: the finger grabs the element where the closed form has it and drags it
            # along a line at the velocity it then releases with.
            plan, grab, velocity = plan_gesture(rng)
            spring_only = [e for e in plan if e[1] == "retarget"]
            at_grab = expected(params, [(e[0], e[1], e[2]) for e in spring_only], [grab])[0]
            for e in plan:
                if e[1] == "set":
                    e[2] = at_grab + velocity * (e[0] - grab) / 1000
            played = play(browser, module, plan, workdir, f"gesture{index}", 20000, punctual=True)
            events = [tuple(e) for e in played["events"]]
            times = [f[0] for f in played["frames"]]
            values = [f[1] for f in played["frames"]]
            reference = expected(params, events, times)
            moves, last = [], 0.0
            for e in events:
                if e[1] == "retarget":
                    moves.append(e[2] - last)
                    last = e[2]
                elif e[1] == "set":
                    last = e[2]
                elif e[1] == "release":
                    moves.append(e[3] - last)
                    last = e[3]
            # The guarantee (each offset's error scales with its size), and the gate: the
            # tolerance of the whole motion's travel.
            guaranteed = TOLERANCE * (sum(map(abs, moves)) + abs(velocity) * impulse_range) + SLACK
            errors = [abs(a - b) for a, b in zip(values, reference)]
            worst = max(errors)
            travel = max(reference) - min(reference)
            bound = min(guaranteed, TOLERANCE * travel + SLACK)
            if worst > bound:
                at = times[errors.index(worst)]
                print(f"FAIL {name}: off by {worst:.3g} at t = {at:.1f} ms (allowed {bound:.3g})")
                passed = False
            else:
                print(f"ok   {name}: 3 retargets, a grab and a release at {velocity:.0f}/s: {len(times)} frames "
                      f"within {worst:.3g} of the closed form, {worst / travel:.2e} of the travel {travel:.0f} "
                      f"(allowed {bound:.3g}; guaranteed {guaranteed:.3g})")
            # Velocity by finite differences across each retarget: played against the closed form.
            allowed = 4 * bound / (FRAME / 1000)  # three values, each within the bound, over a frame
            jump = velocity_jump(events, times, values, reference)
            if jump > allowed:
                print(f"FAIL {name}: the velocity jumps by {jump:.3g}/s at a retarget (allowed {allowed:.3g})")
                passed = False
            else:
                print(f"ok   {name}: no velocity jump at a retarget beyond {jump:.3g}/s (allowed {allowed:.3g})")
            if index == 0:
                # The check must see a restart from rest, as a plain CSS animation's: the same plan
                # played by a player that drops the velocity at every retarget fails it.
                naive = module.replace("  retarget(to) {\n", "  retarget(to) {\n    if (!this._naive) { this._naive = 1; "
                                       "const x = this.value(); this.set(x); this.retarget(to); this._naive = 0; return; }\n", 1)
                if naive == module:
                    sys.exit("check-retarget: the control could not be made (retarget's first line changed)")
                replayed = play(browser, naive, plan, workdir, "control", 20000, punctual=True)
                r_times = [f[0] for f in replayed["frames"]]
                r_jump = velocity_jump([tuple(e) for e in replayed["events"]], r_times, [f[1] for f in replayed["frames"]],
                                       expected(params, [tuple(e) for e in replayed["events"]], r_times))
                if r_jump <= allowed:
                    print(f"FAIL control: a player that restarts from rest passed the velocity check ({r_jump:.3g}/s)")
                    passed = False
                else:
                    print(f"ok   control: a player that restarts from rest jumps by {r_jump:.3g}/s, and fails the check")
                passed &= many_retargets(browser, module, params, responses, workdir, rng)
    if not passed:
        sys.exit(1)


def velocity_jump(events, times, values, reference):
    """The largest difference, played against closed form, of the finite-difference velocity's
    change across a retarget's frame, in units per second."""
    jumps = [0.0]
    for e in events:
        if e[1] != "retarget" or e[0] == 0:
            continue
        k = times.index(e[0])
        if k < 1 or k + 1 >= len(times):
            continue
        def change(xs):
            return (xs[k + 1] - xs[k]) / (times[k + 1] - times[k]) - (xs[k] - xs[k - 1]) / (times[k] - times[k - 1])
        jumps.append(abs(change(values) - change(reference)) * 1000)
    return max(jumps)


def many_retargets(browser, module, params, responses, workdir, rng):
    """1,000 retargets at random moments: the page holds only the offsets still moving."""
    plan, t = [], 0.0
    for _ in range(1000):
        plan.append([t, "retarget", rng.uniform(0, 400), None])
        t += rng.uniform(50, 400)
    played = play(browser, module, plan, workdir, "many", int(t + 5000))
    events = [tuple(e) for e in played["events"]]
    times = [f[0] for f in played["frames"]]
    values = [f[1] for f in played["frames"]]
    counts = [f[2] for f in played["frames"]]
    duration = responses["step"]["duration"] * 1000
    passed = True
    for t, count in zip(times, counts):
        moving = sum(1 for e in events if t - duration < e[0] <= t)
        if count > moving:
            print(f"FAIL 1,000 retargets: {count} animations at t = {t:.0f} ms where {moving} offsets are moving")
            return False
    reference = expected(params, events, times)
    tail = [k for k, t in enumerate(times) if t >= events[-1][0] - 2000]
    moves = [events[i][2] - (events[i - 1][2] if i else 0) for i in range(len(events))]
    recent = [abs(m) for e, m in zip(events, moves) if e[0] >= events[-1][0] - 2000 - duration]
    travel = max(reference[k] for k in tail) - min(reference[k] for k in tail)
    bound = min(TOLERANCE * sum(recent), TOLERANCE * travel) + SLACK
    worst = max(abs(values[k] - reference[k]) for k in tail)
    if worst > bound:
        print(f"FAIL 1,000 retargets: the last 2 s off by {worst:.3g} (allowed {bound:.3g})")
        passed = False
    else:
        print(f"ok   1,000 retargets over {times[-1] / 1000:.0f} s: at most {played['maxAnimations']} animations at "
              f"once (never more than the offsets still moving); the last 2 s within {worst:.3g} of the closed form "
              f"(allowed {bound:.3g})")
    return passed


if __name__ == "__main__":
    main()
