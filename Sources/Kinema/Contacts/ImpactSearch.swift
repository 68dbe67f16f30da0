/// Stage 2 of the located contacts (`SceneStepper`): the earliest impact on the dense output of
/// the step just taken, and the earliest stop of a contact sliding with friction. Static,
/// over the integrator `inout`: the stepper's state stays the stepper's.
enum ImpactSearch {
    struct Impact {
        var time: Double
        var body: Int
        var collider: Collisions.Collider
        /// Not an impact: the body, sliding on `collider` (a plane or a sphere it rests on), stops
        /// there (the sliding is set to 0, and friction holds it from then on while it can).
        var stops = false
    }

    /// A body that ended a step inside a plane or another sphere beyond rounding, with no impact
    /// to resolve it: a contact lost.
    struct Breach {
        var body: Int
        var collider: Collisions.Collider
        var depth: Double

        /// The error that stops the run at `time`.
        func error(in scene: PhysicsScene, at time: Double) -> SimulationError {
            .contactLost(time: time, body: body, collider: collider, depth: depth, in: scene)
        }
    }

    /// The first time in the last step where a resting contact with friction stops sliding (a
    /// body on a plane, two spheres over each other): its sides' sliding velocity, in its
    /// direction at the step's start, falls to the stopping speed, below which friction ramps
    /// down to the sticking law. Without it, a method's steps carry the velocity past 0 and
    /// friction then pushes it back: the body jitters on instead of stopping; and a body pulled
    /// along (less than friction holds) would creep on at the speed where the ramp's partial
    /// friction balances the pull (1.6e-6 m/s under a 3 N spring).
    static func earliestStop<I: Integrator, V>(in integrator: inout I, fixedStep: Bool) -> Impact?
    where I.System == SceneSystem<V> {
        let t0 = integrator.previousTime, t1 = integrator.time, system = integrator.system
        let rubbing = system.resting.filter { system.layout.friction(of: $0) > 0 }
        guard t1 > t0, !rubbing.isEmpty else { return nil }
        let start = integrator.interpolateInPlace(at: t0), end = integrator.state
        var free: V?  // the acceleration at the start without the contacts, where needed
        var first: Impact?
        for contact in rubbing {
            let v0 = Collisions.slidingVelocity(system, start, contact), speed = (v0 * v0).sum().squareRoot()
            let stopping = SceneLayout.stoppingSpeed
            guard speed > stopping else { continue }
            let time: Double
            if (Collisions.slidingVelocity(system, end, contact) * v0).sum() <= stopping * speed {
                time = Collisions.lastNonNegative(t0, t1) { t in
                    (Collisions.slidingVelocity(system, integrator.interpolateInPlace(at: t), contact) * v0).sum()
                        - stopping * speed
                }
            } else {
                // A fixed step can carry a slow body past 0 and back for ever (its stages see
                // friction reverse): it stops where friction, less what pulls it along, would
                // stop it in the step, if friction can hold what pulls it.
                guard fixedStep else { continue }
                let acceleration: V
                if let free {
                    acceleration = free
                } else {
                    var unheld = system
                    unheld.resting = []
                    acceleration = unheld.acceleration(position: start.position, velocity: start.velocity, time: t0)
                    free = acceleration
                }
                let (n, a) = Collisions.relative(system, acceleration, at: start.position, contact)
                let pressing = -(a * n).sum(), pull = a + pressing * n
                let limit = system.layout.friction(of: contact) * pressing
                let slowing = limit - (pull * v0).sum() / speed
                guard pressing > 0, slowing > 0, speed <= slowing * (t1 - t0), (pull * pull).sum() <= limit * limit
                else { continue }
                time = t0 + speed / slowing
            }
            if first.map({ time < $0.time }) ?? true {
                first = Impact(time: time, body: contact.body, collider: contact.collider, stops: true)
            }
        }
        return first
    }

    /// Whether an impact of `body` on `collider` found where the step starts would change nothing
    /// there: the sides touch without approaching, nothing presses them together (no impulse, no
    /// contact at rest), and the step leaves them apart or overlapping by rounding. Applied, it
    /// would restart the same step at the same instant, which would find it again.
    private static func changesNothing<I: Integrator, V>(
        _ integrator: inout I, body: Int, collider: Collisions.Collider
    ) -> Bool where I.System == SceneSystem<V> {
        let system = integrator.system, contact = RestingContact(body: body, collider: collider)
        let (gap, scale) = Collisions.gap(system, integrator.state.position, contact)
        guard Collisions.touching(-gap, scale: scale) else { return false }
        let start = integrator.interpolateInPlace(at: integrator.previousTime)
        return Collisions.separationSpeed(system, start, contact) >= -ContactTolerances.rounding
            && !Collisions.isPressed(system, start, contact)
    }

    /// The earlier of an impact and a stop (an impact at the same time first).
    static func earlier(_ impact: Impact?, _ stop: Impact?) -> Impact? {
        guard let stop else { return impact }
        return impact.map { $0.time <= stop.time ? $0 : stop } ?? stop
    }

    /// Static, with the integrator `inout` so the closures capture its address: a copy (a local,
    /// or a borrowed parameter captured) went through its generic value witness on every step and
    /// doubled the cost of a bouncing drop.
    /// - Parameter planePairs: the bodies and planes that may meet in the step (nil: every
    ///   moving body with every plane).
    @inline(__always)
    static func earliestImpact<I: Integrator, V>(
        in integrator: inout I, pairs: [(Int, Int)], planePairs: [(body: Int, plane: Int)]? = nil,
        breach: inout Breach?, drifted: inout Bool
    ) -> Impact? where I.System == SceneSystem<V> {
        let t0 = integrator.previousTime, t1 = integrator.time
        // The layout and the contacts, not the system: a copy of the system went through its
        // generic value witness on every step.
        let layout = integrator.system.layout, resting = integrator.system.resting, d = layout.dimensions
        let x1 = integrator.state.position, v1 = integrator.state.velocity
        // Whether a body's gap to a plane may fall and rise again inside a step (curve away from
        // the plane): under springs, drag or sphere contacts; under gravity alone, only where it
        // pulls away from the plane (a ceiling).
        let curving = !layout.springs.isEmpty || layout.drag != 0 || resting.contains { $0.other != nil }
        let dips = curving || layout.planeNormals.contains { ($0 * layout.gravity).sum() > 0 }
        var best: Impact?
        drifted = false
        // The earliest impact, but none at the step's start that would change nothing there.
        // Out of line: inlined, it slows the pair loop.
        @inline(never)
        func offer(_ time: Double, _ body: Int, _ collider: Collisions.Collider) {
            guard best.map({ time < $0.time }) ?? true,
                time > t0 || !Self.changesNothing(&integrator, body: body, collider: collider)
            else { return }
            best = Impact(time: time, body: body, collider: collider)
        }
        // A resting contact that ends `depth` inside: drift to close, or a contact lost.
        func overlap(_ body: Int, _ collider: Collisions.Collider, depth: Double, scale: Double) {
            if depth <= ContactTolerances.drift * scale {
                drifted = true
            } else {
                breach = Breach(body: body, collider: collider, depth: depth)
            }
        }
        func consider(
            _ gapAt: (Double) -> Double, body: Int, collider: Collisions.Collider, scale: Double,
            closing: () -> Bool = { true }
        ) {
            // Not in contact before this step; and, when the step began touching (a gap within
            // rounding of 0, like spheres laid side by side), closing or ending inside beyond
            // rounding: touching spheres at rest or moving together would meet a zero-speed
            // "impact" after every restart, and those pressed together by the step but not
            // closing at its end would sink into each other unchecked.
            let start = gapAt(t0), end = gapAt(t1), rounding = ContactTolerances.touching * max(1, scale)
            if start < -rounding && end < -rounding { breach = Breach(body: body, collider: collider, depth: -end) }
            guard end < 0, start >= -rounding, start > ContactTolerances.rounding || end < -rounding || closing() else {
                return
            }
            let time = Collisions.lastNonNegative(t0, t1, gapAt)
            offer(time, body, collider)
        }
        func position(_ body: Int, _ t: Double) -> SIMD3<Double> {
            Self.position(of: body, at: t, dimensions: d, in: &integrator)
        }
        func vector(_ packed: V, _ body: Int) -> SIMD3<Double> { Self.vector(packed, body: body, dimensions: d) }
        func check(_ b: Int, _ p: Int) {
            let xb = vector(x1, b)
            let end = Collisions.gap(layout, xb, body: b, plane: p)
            let scale = max(1, abs(layout.planeOffsets[p]) + layout.radii[b])
            guard end < 0 else {
                // Outside at the step's end, but it may have met the plane inside the step and
                // left it (a ball's arc through a ceiling).
                let n = layout.planeNormals[p]
                guard dips, curving || (layout.gravity * n).sum() > 0,
                    !resting.contains(.init(body: b, plane: p)),
                    let time = Collisions.dip(
                        t0, t1, end: end, endRate: (vector(v1, b) * n).sum() * (t1 - t0),
                        depth: ContactTolerances.rounding * scale,
                        { Collisions.gap(layout, position(b, $0), body: b, plane: p) })
                else { return }
                offer(time, b, .plane(p))
                return
            }
            if resting.contains(.init(body: b, plane: p)) {
                if end < -ContactTolerances.touching * scale { overlap(b, .plane(p), depth: -end, scale: scale) }
                return
            }
            // A step that begins on the surface (an impact just applied there) meets it again
            // only if the body moves into it or ends inside it beyond rounding: a ball leaving
            // an elastic wall was found "hitting" it at zero speed and put at rest.
            func closing() -> Bool {
                end < -ContactTolerances.rounding || (vector(v1, b) * layout.planeNormals[p]).sum() < 0
            }
            consider(
                { Collisions.gap(layout, position(b, $0), body: b, plane: p) }, body: b, collider: .plane(p),
                scale: scale, closing: closing)
        }
        if let planePairs {
            for (b, p) in planePairs { check(b, p) }
        } else {
            for b in 0..<layout.inverseMasses.count where layout.inverseMasses[b] > 0 {  // static bodies meet no plane
                for p in layout.planeOffsets.indices { check(b, p) }
            }
        }
        for (a, b) in pairs where layout.inverseMasses[a] + layout.inverseMasses[b] > 0 {
            // Closing: approaching along the line between the centres faster than `ContactTolerances.closingSpeed` at the step's end.
            func closing() -> Bool {
                let separation = vector(x1, a) - vector(x1, b), approach = vector(v1, a) - vector(v1, b)
                return (separation * approach).sum() < -ContactTolerances.closingSpeed
                    * (separation * separation).sum().squareRoot()
            }
            func gapAt(_ t: Double) -> Double { Collisions.gap(layout, position(a, t), position(b, t), bodies: a, b) }
            let scale = layout.radii[a] + layout.radii[b]
            // A resting pair stays touching by its force, as a body resting on a plane does: a
            // step's error in its gap (where its force ends inside the step, as the sides part)
            // is no impact, unless they close faster than the rest velocity or had drifted apart.
            if resting.contains(.init(body: a, on: b)) {
                let n = vector(x1, a) - vector(x1, b), approach = vector(v1, a) - vector(v1, b)
                let closing = -(n * approach).sum() / (n * n).sum().squareRoot()
                if layout.scene.rests(movingAt: closing, pressed: true)
                    && gapAt(t0) <= ContactTolerances.touching * max(1, scale)
                {
                    let end = gapAt(t1)
                    if end < -ContactTolerances.touching * max(1, scale) {
                        overlap(a, .body(b), depth: -end, scale: max(1, scale))
                    }
                    continue
                }
            }
            let separation = vector(x1, a) - vector(x1, b)
            if (separation * separation).sum().squareRoot() - scale >= 0 {
                // Apart at the step's end: a grazing pair, or one that passed through in a long
                // step, came closest inside it, where the relative motion's parabola through
                // both ends (with the end's velocity) puts it.
                let start = position(a, t0) - position(b, t0), moved = separation - start
                let slack = ContactTolerances.approachSlack * (moved * moved).sum().squareRoot()
                guard
                    let (s, distance) = Collisions.closestApproach(
                        start, separation, endRate: (t1 - t0) * (vector(v1, a) - vector(v1, b)), within: scale + slack),
                    s > 0, s < 1, distance - scale < slack,
                    (start * start).sum().squareRoot() - scale >= -ContactTolerances.touching * max(1, scale),
                    let time = Collisions.dip(
                        t0, t1, guess: t0 + s * (t1 - t0), likely: distance < scale, depth: 0, gapAt)
                else { continue }
                offer(time, a, .body(b))
                continue
            }
            consider(gapAt, body: a, collider: .body(b), scale: scale, closing: closing)
        }
        return best
    }

    /// Body `body`'s 3-vector from packed lanes (unused axes 0); not the system's, which a read
    /// of `integrator.system` would copy first.
    @inline(__always)
    private static func vector<V: StateVector>(_ packed: V, body: Int, dimensions d: Int) -> SIMD3<Double> {
        var v = SIMD3<Double>.zero
        for axis in 0..<d { v[axis] = packed[lane: body * d + axis] }
        return v
    }

    /// Body `body`'s interpolated position. Through `inout`: called on the integrator captured by
    /// a closure, the call copied the whole integrator first (DOP853's, on every root iteration).
    @inline(__always)
    private static func position<I: Integrator>(
        of body: Int, at t: Double, dimensions d: Int, in integrator: inout I
    ) -> SIMD3<Double> {
        integrator.interpolatePosition(at: t, lanes: body * d..<body * d + d)
    }
}
