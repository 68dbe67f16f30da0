import RealModule

/// Collision geometry and response, shared by every scene stepper: contacts at rest at the start,
/// gaps, the root of a gap in a step, and the impulse of an impact.
enum Collisions {
    /// What a body hits: a plane, or another body (by index).
    typealias Collider = ImpactEvent.Collider

    /// Contacts at rest from the start: a body on a plane, not moving into or out of it faster than
    /// the rest velocity, and pushed into it.
    static func initialContacts<V>(_ system: SceneSystem<V>, _ state: PhaseState<V>) throws -> [SceneSystem<V>
        .RestingContact]
    {
        var contacts: [SceneSystem<V>.RestingContact] = []
        // Pressed by the forces alone: a system restarted (a gesture, or a stepper taking over
        // from the event queue) still holds its old contacts, whose forces cancel the press.
        var free = system
        free.resting = []
        let a = free.acceleration(position: state.position, velocity: state.velocity, time: 0)
        for (b, body) in system.scene.bodies.enumerated() where !body.isStatic {
            for (p, plane) in system.scene.planes.enumerated() {
                let gap = Self.gap(system, state.position, body: b, plane: p)
                let scale = max(1, abs(plane.offset) + body.radius)
                guard gap >= -ContactTolerances.rounding * scale else {
                    throw KinemaError(
                        parameter: "body '\(body.name)'", value: "\(-gap) inside plane '\(plane.name)'",
                        rule: "outside every plane at the start")
                }
                let n = system.planeNormals[p]
                let vn = (system.vector(state.velocity, body: b) * n).sum()
                let an = (system.vector(a, body: b) * n).sum()
                // Held only where a force presses it on: at rest against a wall with nothing
                // pushing, a body is merely touching.
                if gap <= ContactTolerances.rounding * scale && system.scene.rests(movingAt: abs(vn), pressed: an < 0) {
                    contacts.append(.init(body: b, plane: p))
                }
            }
        }
        // Spheres pressed together from the start (a stack): touching, not moving apart, and
        // pressed through the contacts below them, found level by level.
        guard system.scene.contacts != nil else { return contacts }
        let layout = system.layout
        var held = free
        held.resting = contacts
        var found = true
        while found {
            found = false
            for b in layout.radii.indices where layout.radii[b] > 0 {
                for o in (b + 1)..<layout.radii.count
                where layout.radii[o] > 0 && layout.inverseMasses[b] + layout.inverseMasses[o] > 0 {
                    let contact = RestingContact(body: b, on: o)
                    guard !held.resting.contains(contact),
                        touching(gap(system, state.position, bodies: b, o), scale: layout.radii[b] + layout.radii[o]),
                        system.scene.rests(
                            movingAt: abs(separationSpeed(system, state, contact)),
                            pressed: isPressed(held, state, contact))
                    else { continue }
                    held.resting.append(contact)
                    found = true
                }
            }
        }
        return held.resting
    }

    static func gap<V>(_ system: SceneSystem<V>, _ position: V, body: Int, plane: Int) -> Double {
        gap(system.layout, system.vector(position, body: body), body: body, plane: plane)
    }

    /// The distance from body `body` at `x` to plane `plane`, less its radius.
    static func gap(_ layout: SceneLayout, _ x: SIMD3<Double>, body: Int, plane: Int) -> Double {
        (x * layout.planeNormals[plane]).sum() - layout.planeOffsets[plane] - layout.radii[body]
    }

    /// Contact `contact`'s gap at `position`, and the scale its rounding is judged by (`touching`).
    static func gap<V>(_ system: SceneSystem<V>, _ position: V, _ contact: RestingContact) -> (
        gap: Double, scale: Double
    ) {
        let layout = system.layout
        switch contact.collider {
        case .plane(let p):
            return (
                gap(system, position, body: contact.body, plane: p),
                abs(layout.planeOffsets[p]) + layout.radii[contact.body]
            )
        case .body(let o):
            return (gap(system, position, bodies: contact.body, o), layout.radii[contact.body] + layout.radii[o])
        }
    }

    static func gap<V>(_ system: SceneSystem<V>, _ position: V, bodies a: Int, _ b: Int) -> Double {
        gap(system.layout, system.vector(position, body: a), system.vector(position, body: b), bodies: a, b)
    }

    /// The distance between bodies `a` at `xa` and `b` at `xb`, less their radii.
    static func gap(_ layout: SceneLayout, _ xa: SIMD3<Double>, _ xb: SIMD3<Double>, bodies a: Int, _ b: Int) -> Double
    {
        let d = xa - xb
        return (d * d).sum().squareRoot() - layout.radii[a] - layout.radii[b]
    }

    /// The root of `f` in [a, b] with f(a) ≥ 0 > f(b), to the last bit: Illinois steps, with a
    /// bisection whenever they stall. Returns the side where f ≥ 0, so nothing starts inside.
    static func lastNonNegative(_ a: Double, _ b: Double, _ f: (Double) -> Double) -> Double {
        var a = a, b = b, fa = max(f(a), 0), fb = f(b)
        var side = 0
        for iteration in 0..<ContactTolerances.rootIterations {
            if b - a <= 2 * b.ulp { break }
            var t = iteration % 3 == 2 ? 0.5 * (a + b) : b - fb * (b - a) / (fb - fa)
            if !(t > a && t < b) { t = 0.5 * (a + b) }
            let ft = f(t)
            if ft >= 0 {
                a = t; fa = ft
                if side == 1 { fb *= 0.5 }
                side = 1
            } else {
                b = t; fb = ft
                if side == -1 { fa *= 0.5 }
                side = -1
            }
        }
        return a
    }

    /// The first impact inside [t0, t1] of a gap that is ≥ 0 at both ends of the step: a body that
    /// met a collider and left it again within one long step (a ball's arc through a ceiling, a
    /// sphere falling past another while an adaptive or exact method steps a free fall in one go).
    /// `guess` is where a model of the step put the gap's minimum, and `likely` whether the model
    /// put it below 0: the gap is read there on the dense output and, where it is not negative
    /// but the model says it should be, the minimum is searched on [t0, t1] (golden sections).
    /// Returns the root before the first negative gap found, nil when the gap stays ≥ 0.
    static func dip(
        _ t0: Double, _ t1: Double, guess: Double, likely: Bool, depth: Double, _ gapAt: (Double) -> Double
    ) -> Double? {
        var inside: Double?
        if gapAt(guess) < -depth {
            inside = guess
        } else if likely {
            let r = 0.6180339887498949
            var a = t0, b = t1, c = b - r * (b - a), d = a + r * (b - a)
            var fc = gapAt(c), fd = gapAt(d)
            for _ in 0..<ContactTolerances.sectionSteps where b - a > 4 * b.ulp {
                if fc < -depth { inside = c; break }
                if fd < -depth { inside = d; break }
                if fc < fd {
                    (b, d, fd) = (d, c, fc)
                    c = b - r * (b - a)
                    fc = gapAt(c)
                } else {
                    (a, c, fc) = (c, d, fd)
                    d = a + r * (b - a)
                    fd = gapAt(d)
                }
            }
        }
        return inside.map { lastNonNegative(t0, $0, gapAt) }
    }

    /// The first impact inside [t0, t1] of a gap to a plane that ends the step at `end` ≥ 0,
    /// growing at `endRate` (per step), if it met the plane inside the step: the gap's parabola
    /// through both ends, with that slope at the end, says where it was least.
    static func dip(
        _ t0: Double, _ t1: Double, end: Double, endRate: Double, depth: Double, _ gapAt: (Double) -> Double
    ) -> Double? {
        // Leaving the plane, near enough to have been on it (under a constant acceleration, a
        // gap that was 0 inside the step is at most its slope at the end times the step).
        guard endRate > 0, end < ContactTolerances.reachFactor * endRate else { return nil }
        let start = gapAt(t0), bend = (end - start) - endRate
        guard start >= 0, bend < 0 else { return nil }
        let s = 0.5 * (1 + (end - start) / bend), least = start + s * (end - start) + s * (1 - s) * bend
        guard s > 0, s < 1, least < ContactTolerances.approachSlack * (end - least) else { return nil }
        return dip(t0, t1, guess: t0 + s * (t1 - t0), likely: least < 0, depth: depth, gapAt)
    }

    /// Where, as a fraction of the step, a path with these ends comes closest to the origin, if
    /// it comes within `reach`: the path from `start` to `end` with `end`'s rate of change times
    /// the step `endRate`, the parabola through both ends with that slope at the end (exact
    /// under a constant acceleration). Returns the fraction and the distance there.
    static func closestApproach(
        _ start: SIMD3<Double>, _ end: SIMD3<Double>, endRate: SIMD3<Double>, within reach: Double
    ) -> (fraction: Double, distance: Double)? {
        // p(s) = start + s·chord + s(1 − s)·bend, so p(1) = end and p′(1) = chord − bend = endRate.
        let chord = end - start, bend = chord - endRate
        // The path strays at most |bend|/4 from the chord: farther than that from the origin, it
        // stays beyond `reach` (most pairs the broad phase finds end here).
        let cc = (chord * chord).sum()
        let along = cc > 0 ? min(max(-(start * chord).sum() / cc, 0), 1) : 0
        let nearest = start + along * chord
        guard (nearest * nearest).sum().squareRoot() - 0.25 * (bend * bend).sum().squareRoot() < reach else {
            return nil
        }
        func squared(_ s: Double) -> Double {
            let p = start + s * chord + (s * (1 - s)) * bend
            return (p * p).sum()
        }
        var best = 0.0, bestValue = squared(0)
        let samples = ContactTolerances.approachSamples
        for k in 1...samples {
            let s = Double(k) / Double(samples), value = squared(s)
            if value < bestValue { (best, bestValue) = (s, value) }
        }
        let r = 0.6180339887498949
        var a = max(best - 1 / Double(samples), 0), b = min(best + 1 / Double(samples), 1)
        for _ in 0..<ContactTolerances.approachSections {
            let c = b - r * (b - a), d = a + r * (b - a)
            if squared(c) < squared(d) { b = d } else { a = c }
        }
        let s = 0.5 * (a + b)
        return squared(s) < bestValue ? (s, squared(s).squareRoot()) : (best, bestValue.squareRoot())
    }

    /// Applies the impulse of an impact, then the impulses it passes on, and returns the new
    /// state; records an event for each.
    ///
    /// An impact can push a body into something it touches (a ball at rest on the floor, hit
    /// from above; a row of spheres): every touching contact that a changed body now approaches
    /// is resolved in turn, most approaching first, as event-driven simulations resolve
    /// simultaneous collisions, until none approaches. Once a contact this impact put at rest
    /// is approached again (the impulses dying down a fraction a round: 60 more impacts for a
    /// ball hit on a ball on the floor), or past `ContactTolerances.passedImpulses` (an inelastic collapse),
    /// the touching bodies meet as one (`meetTogether`), or where that has no single solution,
    /// what still approaches is stopped along the contact's normal instead. An impulse passed on
    /// at less than the rest velocity is inelastic: in a cluster of touching balls the bounces
    /// would go round, each a fraction as fast, up to the cap at one instant.
    static func apply<V>(
        _ system: inout SceneSystem<V>, _ arrived: PhaseState<V>, body b: Int, collider: Collider,
        time: Double, events: inout [ImpactEvent]
    ) -> PhaseState<V> {
        var state = arrived
        var changed: [Int] = []
        var next: (body: Int, collider: Collider)? = (b, collider)
        var passed = 0
        var rested: [RestingContact] = []
        while let (body, collider) = next {
            let contact = RestingContact(body: body, collider: collider)
            if passed == ContactTolerances.passedImpulses
                || (passed < ContactTolerances.passedImpulses && rested.contains(contact)),
                meetTogether(&system, &state, bodies: &changed, time: time, events: &events)
            {
                break
            }
            let stop = passed > ContactTolerances.passedImpulses
            // An impulse passed on presses its pair together, so one that rests ends there
            // (inelastic): touching balls would otherwise pass ever slower bounces round (an
            // inelastic collapse).
            let slow =
                passed > 0 && system.scene.rests(movingAt: -separationSpeed(system, state, contact), pressed: true)
            let scale = stop || slow ? 0.0 : 1
            if !impactOnRestingBodies(
                &system, &state, body: body, collider: collider, time: time, events: &events,
                restitutionScale: scale, changed: &changed)
            {
                impulse(
                    &system, &state, body: body, collider: collider, time: time, events: &events,
                    restitutionScale: scale)
            }
            if events.last?.speedOut == 0 && !rested.contains(contact) { rested.append(contact) }
            if stop && passed > 2 * ContactTolerances.passedImpulses { break }
            if !changed.contains(body) { changed.append(body) }
            if case .body(let o) = collider, !changed.contains(o) { changed.append(o) }
            passed += 1
            next = mostApproachingContact(system, state, of: changed)
        }
        // Contacts of the changed bodies that now part let go, but for those parting slower than
        // the rest velocity where the forces press them (as a bounce that slow ends at rest):
        // let go, one wedged between two others met them in turn, each impact parting the other.
        // Whether the forces press them: a contact presses where it has a force with every other
        // contact in place, so one solve answers for most; where it has none, the rest rule's own
        // test answers (`isPressed`, as for a bounce). The sweeps that stand in where the exact
        // solve fails can leave a pressed contact at 0 (one pressed at 0.89 m/s² on the 68-ball
        // pile), and contacts pressed by rounding alone, let go, rattled against their neighbours.
        let resting = system.resting
        var pressing: [Double] = []
        func pressed(_ c: Int) -> Bool {
            if pressing.isEmpty {
                pressing = system.withPressing(position: state.position, velocity: state.velocity) { Array($1) }
            }
            return pressing[c] > 0 || isPressed(system, state, resting[c])
        }
        var separating: [RestingContact] = []
        for (c, contact) in resting.enumerated() where changed.contains(where: contact.involves) {
            let speed = separationSpeed(system, state, contact)
            if speed > ContactTolerances.rounding && !system.scene.rests(movingAt: speed, pressed: pressed(c)) {
                separating.append(contact)
            }
        }
        if !separating.isEmpty { system.resting.removeAll { separating.contains($0) } }
        stopHeldBodies(system, &state)
        holdResting(system, &state, around: changed)
        // The state inside the step carries the step's drift, which its end would have closed;
        // and setting a pair of spheres touching can push one into what is behind it: the bodies
        // moved beyond rounding (`ContactTolerances.rounding`; an impact found by its root is within 1e-16 of touching).
        let shifted = changed.filter { body in
            let moved = system.vector(state.position, body: body) - system.vector(arrived.position, body: body)
            return (moved * moved).sum() > ContactTolerances.rounding * ContactTolerances.rounding
        }
        closeGaps(system, &state, around: shifted)
        return state
    }

    /// A resting contact whose sliding friction stops (`ImpactSearch.earliestStop`): its sides'
    /// relative velocity left along its normal alone, the resting contacts held, their gaps closed.
    static func stopSliding<V>(_ system: SceneSystem<V>, _ arrived: PhaseState<V>, _ contact: RestingContact)
        -> PhaseState<V>
    {
        var state = arrived
        removeSliding(system, &state, contact, slidingVelocity(system, state, contact))
        holdResting(system, &state, around: contact.bodies)
        closeGaps(system, &state)
        return state
    }

    /// Sets to 0 the speed along the normal of every resting contact of `bodies` and of the
    /// bodies resting on them, together: the contact forces hold the sides' acceleration, not
    /// their speed, so a speed an impact left (1.7e-8 m/s between two stacked balls, from
    /// friction stopping the lower) would carry one into the other unchecked.
    ///
    /// Holding a contact moves its sides along its normal, which can close another contact of
    /// theirs that touches without resting (a ball sliding down one it rests on, over one it just
    /// bounced off). Those push, where needed, so that the holding leaves none approaching: the
    /// next step would meet it again at the same instant.
    static func holdResting<V>(_ system: SceneSystem<V>, _ state: inout PhaseState<V>, around bodies: [Int]) {
        let before = state
        // The contacts of `bodies` and of the bodies they reach, in turn: the resting ones, and
        // with `touching`, the others that touch without approaching (those approaching already
        // are an impact's to resolve, not the holding's).
        func reach(touching: Bool) -> (resting: [RestingContact], pushing: [RestingContact], bodies: [Int]) {
            var reached = bodies, resting: [RestingContact] = [], pushing: [RestingContact] = []
            var i = 0
            func visit(_ o: Int) { if !reached.contains(o) { reached.append(o) } }
            while i < reached.count {
                let b = reached[i]
                i += 1
                for contact in system.resting where contact.involves(b) && !resting.contains(contact) {
                    resting.append(contact)
                    if let o = contact.other {
                        visit(contact.body)
                        visit(o)
                    }
                }
                guard touching else { continue }
                forEachTouching(system, before.position, of: b) { contact in
                    guard !system.resting.contains(contact), !pushing.contains(contact),
                        separationSpeed(system, before, contact) >= -ContactTolerances.rounding
                    else { return }
                    pushing.append(contact)
                    // A static body passes nothing on.
                    if let o = contact.partner(of: b), system.layout.inverseMasses[o] > 0 { visit(o) }
                }
            }
            return (resting, pushing, reached)
        }
        let layout = system.layout
        func hold(_ contacts: [RestingContact], resting: Int, _ state: inout PhaseState<V>) -> Bool {
            V.withLanes(of: state.position) { x in
                V.withMutableLanes(of: &state.velocity) { v in
                    layout.contactImpulses(x, velocities: v, contacts, holding: resting) != nil
                }
            }
        }
        let held = reach(touching: false)
        guard !held.resting.isEmpty else { return }
        _ = hold(held.resting, resting: held.resting.count, &state)
        guard mostApproachingContact(system, state, of: held.bodies) != nil else { return }
        let all = reach(touching: true)
        guard all.pushing.contains(where: { separationSpeed(system, state, $0) < -ContactTolerances.rounding }) else {
            return
        }
        var together = before
        if hold(all.resting + all.pushing, resting: all.resting.count, &together) { state = together }
    }

    /// Calls `body` with each contact `b` touches at `x`: a plane, or a sphere when the scene has
    /// contacts (not a static body on a plane, nor two static bodies).
    static func forEachTouching<V>(_ system: SceneSystem<V>, _ x: V, of b: Int, _ body: (RestingContact) -> Void) {
        let layout = system.layout
        func offer(_ contact: RestingContact) {
            let (gap, scale) = gap(system, x, contact)
            if touching(gap, scale: scale) { body(contact) }
        }
        if layout.inverseMasses[b] > 0 {
            for p in layout.planeOffsets.indices { offer(RestingContact(body: b, plane: p)) }
        }
        guard system.scene.contacts != nil, layout.radii[b] > 0 else { return }
        for o in layout.radii.indices
        where o != b && layout.radii[o] > 0 && layout.inverseMasses[b] + layout.inverseMasses[o] > 0 {
            offer(RestingContact(body: b, on: o))
        }
    }

    /// Moves the sides of resting contacts that a step's error left overlapping back to touching:
    /// the forces hold a contact's acceleration, so the error in its gap grows step by step. The
    /// correction is the smallest in the bodies' masses that leaves no overlap among the resting
    /// contacts and whatever their bodies, and `bodies`, could be pushed into (planes and spheres
    /// within twice the deepest overlap, then any the correction pushes a body into, in rounds):
    /// the position form of the contact problem (`SceneLayout.contactCorrection`).
    /// Velocities are left as they are (held here, they undid the impulse of an impact just
    /// applied). Nothing changes where no overlap is beyond rounding (1e-9 of the contact's
    /// scale, as the stepper's checks).
    static func closeGaps<V>(_ system: SceneSystem<V>, _ state: inout PhaseState<V>, around bodies: [Int] = []) {
        let layout = system.layout, scene = system.scene, x = state.position
        guard !system.resting.isEmpty || !bodies.isEmpty else { return }
        var moved = [Bool](repeating: false, count: scene.bodies.count)
        for b in bodies { moved[b] = true }
        for contact in system.resting {
            moved[contact.body] = true
            if let o = contact.other { moved[o] = true }
        }
        /// The resting contacts, then every plane and sphere of each body moved (repeats included).
        func forEachContact(_ body: (RestingContact) -> Void) {
            system.resting.forEach(body)
            for b in moved.indices where moved[b] {
                for p in scene.planes.indices { body(RestingContact(body: b, plane: p)) }
                guard scene.contacts != nil && layout.radii[b] > 0 else { continue }
                for o in scene.bodies.indices where o != b && layout.radii[o] > 0 {
                    body(RestingContact(body: b, on: o))
                }
            }
        }
        var deepest = 0.0, beyondRounding = false
        forEachContact { contact in
            let (gap, scale) = Collisions.gap(system, x, contact)
            deepest = min(deepest, gap)
            // An overlap as deep as `touching` allows a gap: beyond rounding.
            if !touching(-gap, scale: scale) { beyondRounding = true }
        }
        guard beyondRounding else { return }
        let reach = 2 * -deepest + ContactTolerances.touching
        var kept: [RestingContact] = []
        forEachContact { contact in
            if Collisions.gap(system, x, contact).gap < reach && !kept.contains(contact) { kept.append(contact) }
        }
        var joined = kept, gaps: [Double] = [], corrected = x
        // Rounds, as the time-stepped projection's: pushed through a wedged row, a body can move
        // into a neighbour beyond the reach (1e-7 into one 5e-9 away, on the 68-ball pile), which
        // then joins the contacts solved together.
        for _ in 0..<ContactTolerances.projectionRounds {
            // The bodies a solved contact moves: their own neighbours are checked too.
            for contact in joined {
                moved[contact.body] = true
                if let o = contact.other { moved[o] = true }
            }
            gaps += joined.map { Collisions.gap(system, x, $0).gap }
            var correction = V.zero(like: x)
            V.withLanes(of: x) { x in
                V.withMutableLanes(of: &correction) { dx in _ = layout.contactCorrection(x, dx, kept, gaps: gaps) }
            }
            corrected = x + correction
            joined = []
            forEachContact { contact in
                let (gap, scale) = Collisions.gap(system, corrected, contact)
                if !touching(-gap, scale: scale) && !kept.contains(contact) && !joined.contains(contact) {
                    joined.append(contact)
                }
            }
            if joined.isEmpty { break }
            kept += joined
        }
        state.position = corrected
    }

    /// Sets to 0 the sliding of resting contacts with friction (a body on a plane, two spheres)
    /// that an impulse left slower than the stopping speed. Friction holds them from then on (or
    /// lets them slip along what pulls them): a leftover velocity in another direction would
    /// have them switch between holding and sliding at the sticking speed, step after tiny step.
    static func stopHeldBodies<V>(_ system: SceneSystem<V>, _ state: inout PhaseState<V>) {
        for contact in system.resting where system.layout.friction(of: contact) > 0 {
            let sliding = slidingVelocity(system, state, contact)
            if (sliding * sliding).sum() <= SceneLayout.stoppingSpeed * SceneLayout.stoppingSpeed {
                removeSliding(system, &state, contact, sliding)
            }
        }
    }

    /// A resting contact's normal at `position` (from the other side towards `contact.body`) and
    /// `packed`'s relative vector there (the body's less the other's: velocities, accelerations).
    static func relative<V>(_ system: SceneSystem<V>, _ packed: V, at position: V, _ contact: RestingContact)
        -> (normal: SIMD3<Double>, relative: SIMD3<Double>)
    {
        let u = system.vector(packed, body: contact.body)
        switch contact.collider {
        case .plane(let p): return (system.planeNormals[p], u)
        case .body(let o):
            let d = system.vector(position, body: contact.body) - system.vector(position, body: o)
            let distance = (d * d).sum().squareRoot()
            return (distance > 0 ? d / distance : .zero, u - system.vector(packed, body: o))
        }
    }

    /// How the two sides of a resting contact slide over each other: their relative velocity
    /// across its normal (what friction acts against).
    static func slidingVelocity<V>(_ system: SceneSystem<V>, _ state: PhaseState<V>, _ contact: RestingContact)
        -> SIMD3<Double>
    {
        let (n, u) = relative(system, state.velocity, at: state.position, contact)
        return u - (u * n).sum() * n
    }

    /// Takes `sliding` out of the relative velocity of a resting contact's sides, in equal and
    /// opposite impulses (momentum kept; a static side keeps still).
    static func removeSliding<V>(
        _ system: SceneSystem<V>, _ state: inout PhaseState<V>, _ contact: RestingContact, _ sliding: SIMD3<Double>
    ) {
        let w = system.layout.inverseMasses, b = contact.body
        guard let o = contact.other else {
            system.set(&state.velocity, body: b, to: system.vector(state.velocity, body: b) - sliding)
            return
        }
        let total = w[b] + w[o]
        guard total > 0 else { return }
        system.set(&state.velocity, body: b, to: system.vector(state.velocity, body: b) - (w[b] / total) * sliding)
        system.set(&state.velocity, body: o, to: system.vector(state.velocity, body: o) + (w[o] / total) * sliding)
    }

    /// How fast the two sides of a resting contact move apart along its normal.
    static func separationSpeed<V>(_ system: SceneSystem<V>, _ state: PhaseState<V>, _ contact: RestingContact)
        -> Double
    {
        let v = system.vector(state.velocity, body: contact.body)
        switch contact.collider {
        case .plane(let p): return (v * system.planeNormals[p]).sum()
        case .body(let o):
            let d = system.vector(state.position, body: contact.body) - system.vector(state.position, body: o)
            let distance = (d * d).sum().squareRoot()
            return distance > 0 ? ((v - system.vector(state.velocity, body: o)) * d).sum() / distance : 0
        }
    }

    /// How close a contact must be to count as touching: within rounding of the scene's scale.
    static func touching(_ gap: Double, scale: Double) -> Bool { gap <= ContactTolerances.touching * max(1, scale) }

    /// Among the contacts of `bodies`, the touching one approached fastest (faster than 1e-12
    /// units/s), if any: a plane, or a sphere when the scene has contacts.
    /// - Complexity: O(bodies × (planes + bodies in the scene)).
    static func mostApproachingContact<V>(
        _ system: SceneSystem<V>, _ state: PhaseState<V>,
        of bodies: [Int]
    ) -> (body: Int, collider: Collider)? {
        let layout = system.layout
        var best: (body: Int, collider: Collider)?, fastest = ContactTolerances.rounding
        for b in bodies where layout.inverseMasses[b] > 0 {
            let x = system.vector(state.position, body: b), v = system.vector(state.velocity, body: b)
            for p in layout.planeOffsets.indices {
                let n = layout.planeNormals[p]
                guard touching(gap(layout, x, body: b, plane: p), scale: abs(layout.planeOffsets[p]) + layout.radii[b])
                else { continue }
                let approach = -(v * n).sum()
                if approach > fastest { (best, fastest) = ((b, .plane(p)), approach) }
            }
        }
        guard system.scene.contacts != nil else { return best }
        for b in bodies where layout.radii[b] > 0 {
            let x = system.vector(state.position, body: b), v = system.vector(state.velocity, body: b)
            for o in layout.radii.indices
            where o != b && layout.radii[o] > 0 && layout.inverseMasses[b] + layout.inverseMasses[o] > 0 {
                let xo = system.vector(state.position, body: o)
                guard touching(gap(layout, x, xo, bodies: b, o), scale: layout.radii[b] + layout.radii[o]) else {
                    continue
                }
                let d = x - xo, distance = (d * d).sum().squareRoot()
                guard distance > 0 else { continue }
                let approach = -(((v - system.vector(state.velocity, body: o)) * d).sum() / distance)
                if approach > fastest { (best, fastest) = ((b, .body(o)), approach) }
            }
        }
        return best
    }

    /// Whether the forces, passed through the other resting contacts (the floor under the ball
    /// below), press the two sides of `contact` together (two spheres sliding over each other,
    /// by more than their `SceneLayout.bending`).
    /// - Complexity: one acceleration of the whole scene.
    static func isPressed<V>(_ system: SceneSystem<V>, _ state: PhaseState<V>, _ contact: RestingContact) -> Bool {
        var others = system
        others.resting.removeAll { $0 == contact }
        let a = others.acceleration(position: state.position, velocity: state.velocity, time: 0)
        let ab = system.vector(a, body: contact.body)
        switch contact.collider {
        case .plane(let p): return (ab * system.planeNormals[p]).sum() < 0
        case .body(let o):
            let d = system.vector(state.position, body: contact.body) - system.vector(state.position, body: o)
            let relative = system.vector(state.velocity, body: contact.body) - system.vector(state.velocity, body: o)
            let distance = (d * d).sum().squareRoot()
            return ((ab - system.vector(a, body: o)) * d).sum() / distance + SceneLayout.bending(d, relative) < 0
        }
    }

    /// One impact's impulse, `restitutionScale` times the collider's restitution (0: stopped along
    /// the normal). A bounce slower than the rest velocity ends at rest only where the forces
    /// press the body against what it touches; with nothing pressing, it goes on at e × its speed.
    static func impulse<V>(
        _ system: inout SceneSystem<V>, _ state: inout PhaseState<V>, body b: Int, collider: Collider,
        time: Double, events: inout [ImpactEvent], restitutionScale: Double
    ) {
        let scene = system.scene
        touchExactly(system, &state, body: b, collider: collider)
        switch collider {
        case .plane(let p):
            let plane = scene.planes[p], n = system.planeNormals[p]
            let x = system.vector(state.position, body: b)
            var v = system.vector(state.velocity, body: b)
            var (tangential, speedIn, speedOut) = planeBounce(
                v, normal: n, restitution: plane.restitution * restitutionScale, friction: plane.friction)
            let contact = RestingContact(body: b, plane: p)
            if scene.rests(movingAt: speedOut, pressed: isPressed(system, state, contact)) {
                speedOut = 0
                if !system.resting.contains(contact) { system.resting.append(contact) }
            } else {
                system.resting.removeAll { $0 == contact }  // it bounces off: no longer held there
            }
            let before = v
            v = tangential + speedOut * n
            system.set(&state.velocity, body: b, to: v)
            events.append(
                ImpactEvent(
                    time: time, body: b, hit: .plane(p), in: scene,
                    speedIn: speedIn, speedOut: speedOut,
                    jumps: [.init(body: b, position: x, before: before, after: v)]))
        case .body(let o):
            let contact = scene.contacts!
            let wa = system.inverseMasses[b], wo = system.inverseMasses[o]
            let xa = system.vector(state.position, body: b), xo = system.vector(state.position, body: o)
            var va = system.vector(state.velocity, body: b), vo = system.vector(state.velocity, body: o)
            let d = xa - xo
            let distance = (d * d).sum().squareRoot()
            let n = distance > 0 ? d / distance : SIMD3<Double>(0, 0, 1)
            let (beforeA, beforeO) = (va, vo)
            let approach = -((va - vo) * n).sum(), speedIn = max(approach, 0)
            var speedOut = contact.restitution * restitutionScale * speedIn
            let pair = RestingContact(body: b, on: o)
            // At rest, the pair's speed along the normal is 0, as a body's at rest on a plane: met
            // while still parting (by rounding), it would be let go and met again at once.
            var closed = speedIn
            if scene.rests(movingAt: speedOut, pressed: isPressed(system, state, pair)) {
                speedOut = 0
                closed = approach
                if !system.resting.contains(pair) { system.resting.append(pair) }
            } else {
                system.resting.removeAll { $0 == pair }
            }
            (va, vo) = exchanged(
                va, vo, wa, wo, normal: n, speedIn: closed, speedOut: speedOut, friction: contact.friction)
            system.set(&state.velocity, body: b, to: va)
            system.set(&state.velocity, body: o, to: vo)
            events.append(
                ImpactEvent(
                    time: time, body: b, hit: .body(o), in: scene,
                    speedIn: speedIn, speedOut: speedOut,
                    jumps: [
                        .init(body: b, position: xa, before: beforeA, after: va),
                        .init(body: o, position: xo, before: beforeO, after: vo)
                    ]))
        }
    }

    /// A bounce off a plane of unit normal `n` (the arithmetic of every run, stepped or event-driven):
    /// the normal speed in, `restitution` times it out, and the tangential velocity less Coulomb
    /// friction's μ(1 + e)·speed in (not below 0).
    static func planeBounce(_ v: SIMD3<Double>, normal n: SIMD3<Double>, restitution: Double, friction: Double)
        -> (tangential: SIMD3<Double>, speedIn: Double, speedOut: Double)
    {
        let vn = (v * n).sum()
        var tangential = v - vn * n
        let speedIn = max(-vn, 0)
        let tangentialSpeed = (tangential * tangential).sum().squareRoot()
        if friction > 0 && tangentialSpeed > 0 {
            let reduced = max(0, tangentialSpeed - friction * (1 + restitution) * speedIn)
            tangential *= reduced / tangentialSpeed
        }
        return (tangential, speedIn, restitution * speedIn)
    }

    /// Two spheres pushed apart along `n` (unit, from the second to the first) by an `overlap`
    /// (rounding), each in proportion to its inverse mass.
    static func separated(
        _ xa: SIMD3<Double>, _ xo: SIMD3<Double>, overlap: Double, _ wa: Double, _ wo: Double, normal n: SIMD3<Double>
    ) -> (SIMD3<Double>, SIMD3<Double>) {
        guard overlap > 0 else { return (xa, xo) }
        return (xa + (overlap * wa / (wa + wo)) * n, xo - (overlap * wo / (wa + wo)) * n)
    }

    /// Two spheres' velocities after an impact along `n` that turns the normal speed `speedIn`
    /// into `speedOut`, with Coulomb friction on their tangential relative velocity.
    static func exchanged(
        _ va: SIMD3<Double>, _ vo: SIMD3<Double>, _ wa: Double, _ wo: Double, normal n: SIMD3<Double>,
        speedIn: Double, speedOut: Double, friction: Double
    ) -> (SIMD3<Double>, SIMD3<Double>) {
        let relative = va - vo, un = (relative * n).sum()
        let impulse = (speedIn + speedOut) / (wa + wo)
        var (a, o) = (va + (impulse * wa) * n, vo - (impulse * wo) * n)
        let tangential = relative - un * n
        let tangentialSpeed = (tangential * tangential).sum().squareRoot()
        if friction > 0 && tangentialSpeed > 0 {
            let frictionImpulse = min(friction * max(impulse, 0), tangentialSpeed / (wa + wo))
            a -= (frictionImpulse * wa / tangentialSpeed) * tangential
            o += (frictionImpulse * wo / tangentialSpeed) * tangential
        }
        return (a, o)
    }
}
