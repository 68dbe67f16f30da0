/// A body resting on a plane, or on another sphere it is pressed against: the normal velocity
/// between them is zero and the contact carries the normal force (`SceneLayout.accelerate`
/// removes the acceleration into it, and applies Coulomb friction on a plane: holding or sliding).
@usableFromInline package struct RestingContact: Hashable, Sendable {
    @usableFromInline package var body: Int
    /// What `body` rests on: a plane, or a sphere of a higher index (so each pair is one value).
    @usableFromInline package var collider: ImpactEvent.Collider

    package init(body: Int, plane: Int) { (self.body, collider) = (body, .plane(plane)) }

    /// Spheres `body` and `other` pressed together.
    package init(body: Int, on other: Int) { (self.body, collider) = (min(body, other), .body(max(body, other))) }

    /// Body `body` touching `collider`.
    init(body: Int, collider: ImpactEvent.Collider) {
        switch collider {
        case .plane(let p): self.init(body: body, plane: p)
        case .body(let o): self.init(body: body, on: o)
        }
    }

    /// The sphere it rests on; nil on a plane.
    @inlinable var other: Int? {
        if case .body(let o) = collider { return o }
        return nil
    }

    /// Whether `body` is one of the contact's bodies.
    func involves(_ body: Int) -> Bool { self.body == body || other == body }

    /// The sphere across the contact from `body`; nil on a plane.
    func partner(of body: Int) -> Int? { other.map { self.body == body ? $0 : self.body } }

    /// Its bodies: one on a plane, two for a pair.
    var bodies: [Int] { other.map { [body, $0] } ?? [body] }
}

/// A spring with its ends resolved to body indices.
@usableFromInline
struct CompiledSpring: Sendable {
    @usableFromInline var first: Int
    /// -1 for an anchor.
    @usableFromInline var second: Int
    @usableFromInline var anchor: SIMD3<Double>
    @usableFromInline var stiffness: Double
    @usableFromInline var damping: Double
    @usableFromInline var restLength: Double
}

/// A scene compiled for its force loop, the same for every state vector: body i, axis a at lane
/// `i·dimensions + a`. Not generic: nested in `SceneSystem<V>` its loops ran unspecialized (a
/// generic iterator call per spring). The inverse masses and springs are in buffers of its own,
/// read without closures: closures over arrays were outlined with the dimension as a variable,
/// which lost the loops' constant bounds.
@usableFromInline
final class SceneLayout: @unchecked Sendable {  // immutable after init; it frees its two buffers
    @usableFromInline let scene: PhysicsScene
    @usableFromInline let dimensions: Int
    /// 0 for a static body.
    @usableFromInline let inverseMasses: UnsafeBufferPointer<Double>
    /// 0 for a static body; in the inverse masses' buffer, after them. For the energy check,
    /// where a division per body was most of its time.
    @usableFromInline let masses: UnsafeBufferPointer<Double>
    @usableFromInline let gravity: SIMD3<Double>
    @usableFromInline let drag: Double
    @usableFromInline let springs: UnsafeBufferPointer<CompiledSpring>
    @usableFromInline let planeNormals: [SIMD3<Double>]
    /// Copies of the bodies' radii and the planes' offsets: the collision search reads them for
    /// every body in every step, and reading them through the scene copies each body (its name
    /// and arrays retained and released).
    let radii: [Double]
    let planeOffsets: [Double]
    /// Every body's acceleration starts as gravity alone: no drag, no static body.
    let startsFromGravity: Bool

    init(scene: PhysicsScene) {
        self.scene = scene
        dimensions = scene.dimensions
        let n = scene.bodies.count
        let both = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2 * n)
        for (i, body) in scene.bodies.enumerated() {
            both.initializeElement(at: i, to: body.inverseMass)
            both.initializeElement(at: n + i, to: body.isStatic ? 0 : body.mass)
        }
        inverseMasses = UnsafeBufferPointer(start: both.baseAddress, count: n)
        masses = UnsafeBufferPointer(start: both.baseAddress.map { $0 + n }, count: n)
        gravity = scene.gravity
        drag = scene.drag
        springs = Self.buffer(scene.springs) { spring in
            switch spring.ends {
            case let .anchor(body, at):
                return CompiledSpring(
                    first: body, second: -1, anchor: at, stiffness: spring.stiffness,
                    damping: spring.damping, restLength: spring.restLength)
            case let .bodies(a, b):
                return CompiledSpring(
                    first: a, second: b, anchor: .zero, stiffness: spring.stiffness,
                    damping: spring.damping, restLength: spring.restLength)
            }
        }
        planeNormals = scene.planes.map(\.normal)
        radii = scene.bodies.map(\.radius)
        planeOffsets = scene.planes.map(\.offset)
        startsFromGravity = drag == 0 && !inverseMasses.contains(0)
    }

    deinit {
        inverseMasses.deallocate()  // and the masses after them
        springs.deallocate()
    }

    /// `transform` of each element in a buffer of its own (none for none), filled in place: no
    /// intermediate array, so a scene costs the allocations it did with arrays.
    static func buffer<Element, T>(_ elements: [Element], _ transform: (Element) -> T) -> UnsafeBufferPointer<T> {
        guard !elements.isEmpty else { return UnsafeBufferPointer(start: nil, count: 0) }
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: elements.count)
        for (i, element) in elements.enumerated() { (buffer.baseAddress! + i).initialize(to: transform(element)) }
        return UnsafeBufferPointer(buffer)
    }

    /// Body `body`'s 3-vector (unused axes 0) from contiguous lanes, `d` per body.
    @inline(__always)
    func load(_ lanes: UnsafePointer<Double>, _ body: Int, _ d: Int) -> SIMD3<Double> {
        // Built whole: a store to a lane picked at run time and the read of the whole vector
        // after it stalled on store forwarding (a third of the contact force solve's time).
        let first = lanes + body &* d
        switch d {
        case 1: return SIMD3(first[0], 0, 0)
        case 2: return SIMD3(first[0], first[1], 0)
        default: return SIMD3(first[0], first[1], first[2])
        }
    }

    @inline(__always)
    func add(_ v: SIMD3<Double>, to lanes: UnsafeMutablePointer<Double>, _ body: Int, _ d: Int) {
        for axis in 0..<d { lanes[body &* d &+ axis] += v[axis] }
    }

    /// Gravity, drag, springs and resting contacts into `a` (every lane of the scene written).
    @usableFromInline
    func accelerate(
        position x: UnsafePointer<Double>, velocity v: UnsafePointer<Double>,
        into a: UnsafeMutablePointer<Double>, resting: [RestingContact]
    ) {
        // One copy of the loops per dimension, so each has constant bounds (unrolled, no
        // per-axis branches), which a loop over a runtime `d` does not.
        switch dimensions {
        case 1: accelerate(x, v, a, axes: OneAxis.self)
        case 2: accelerate(x, v, a, axes: TwoAxes.self)
        default: accelerate(x, v, a, axes: ThreeAxes.self)
        }
        if !resting.isEmpty { applyContacts(x, v, a, resting) }
    }

    /// The dimension as a type, so each case is a specialization with constant bounds (a literal
    /// passed to an `@inline(__always)` function is not enough: it is compiled once, with the
    /// dimension as a variable).
    private protocol AxisCount { static var count: Int { get } }
    private enum OneAxis: AxisCount { static var count: Int { 1 } }
    private enum TwoAxes: AxisCount { static var count: Int { 2 } }
    private enum ThreeAxes: AxisCount { static var count: Int { 3 } }

    private func accelerate<Axes: AxisCount>(
        _ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>,
        _ a: UnsafeMutablePointer<Double>, axes: Axes.Type
    ) {
        let d = Axes.count
        // Gravity and drag held in locals: read through `self` they were loaded again after
        // every store into `a` (which might alias them), a sixth of the loop's time.
        let w = inverseMasses, springs = self.springs, g = gravity, drag = self.drag
        if startsFromGravity {
            for i in 0..<w.count {
                for axis in 0..<d { a[i &* d &+ axis] = g[axis] }
            }
        } else {
            for i in 0..<w.count {
                let c = drag * w[i], moves = w[i] != 0  // a static body has no acceleration
                for axis in 0..<d {
                    let lane = i &* d &+ axis
                    a[lane] = moves ? g[axis] - c * v[lane] : 0
                }
            }
        }
        for s in 0..<springs.count {
            let spring = springs[s]
            let x1 = load(x, spring.first, d), v1 = load(v, spring.first, d)
            let x2 = spring.second < 0 ? spring.anchor : load(x, spring.second, d)
            let v2 = spring.second < 0 ? SIMD3<Double>.zero : load(v, spring.second, d)
            let separation = x1 - x2, dv = v1 - v2
            let force: SIMD3<Double>
            if spring.restLength == 0 {
                force = -spring.stiffness * separation - spring.damping * dv
            } else {
                let length = (separation * separation).sum().squareRoot()
                guard length > 0 else { continue }  // direction undefined: no force at coincidence
                let n = separation * (1 / length)  // one division, not one per axis
                force = -(spring.stiffness * (length - spring.restLength) + spring.damping * (dv * n).sum()) * n
            }
            add(w[spring.first] * force, to: a, spring.first, d)
            if spring.second >= 0 { add(-w[spring.second] * force, to: a, spring.second, d) }
        }
    }

    /// Twice `ContactTolerances.stickingSpeed`, from which friction acts in full: a body slowing to it stops
    /// (below it, friction ramps down and could balance a pull it holds, leaving a creep).
    static var stoppingSpeed: Double { 2 * ContactTolerances.stickingSpeed }

    /// Resting contacts: the acceleration into each removed, Coulomb friction added.
    /// Sphere pairs pass their normal force on (a ball on a ball on the floor), so their normal
    /// forces are solved exactly, as one complementarity problem (`pressContacts`): projected
    /// Gauss–Seidel sweeps converge slowly along a chain of contacts, and a push one takes early
    /// stays when the others make it too much. Friction (on a plane, or between two spheres) is
    /// then added by sweeps from those forces, at most `ContactTolerances.frictionSweeps`, each
    /// bounded by the normal force accumulated (a stack's weight, not the body's own); the same
    /// sweeps stand in where the exact solve fails.
    ///
    /// With `pressing`, writes there, per contact, the normal acceleration its force gave (0 for
    /// one that does not press).
    func applyContacts(
        _ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>, _ a: UnsafeMutablePointer<Double>,
        _ resting: [RestingContact], pressing: UnsafeMutablePointer<Double>? = nil
    ) {
        let hasPairs = resting.contains { $0.other != nil }
        guard hasPairs else {
            // One sweep settles contacts with planes alone: no accumulated forces to keep.
            var pushed = false
            for (c, contact) in resting.enumerated() {
                var pressed = 0.0, friction = SIMD3<Double>.zero
                guard case .plane(let p) = contact.collider else { continue }
                resolvePlane(contact.body, on: p, x, v, a, pressing: &pressed, friction: &friction, pushed: &pushed)
                pressing?[c] = pressed
            }
            return
        }
        let m = resting.count, d = dimensions
        // Per contact: the normal acceleration removed so far, then the friction applied (3);
        // then each pair's bending (it does not change from sweep to sweep).
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 5 * m) { buffer in
            let forces = buffer.baseAddress!, bending = forces + 4 * m
            forces.initialize(repeating: 0, count: 4 * m)
            let exact = pressContacts(x, v, a, resting, pressing: forces)
            if !exact || resting.contains(where: { friction(of: $0) > 0 }) {
                for (c, contact) in resting.enumerated() {
                    guard let o = contact.other else { continue }
                    bending[c] = Self.bending(
                        load(x, contact.body, d) - load(x, o, d), load(v, contact.body, d) - load(v, o, d))
                }
                for _ in 0..<ContactTolerances.frictionSweeps {
                    var pushed = false
                    for (c, contact) in resting.enumerated() {
                        var friction = SIMD3(forces[4 * c + 1], forces[4 * c + 2], forces[4 * c + 3])
                        switch contact.collider {
                        case .body(let o):
                            forces[4 * c] += resolvePair(contact.body, o, x, a, bending: bending[c], pushed: &pushed)
                            rubPair(
                                contact.body, o, x, v, a, pressing: forces[4 * c], friction: &friction, pushed: &pushed)
                        case .plane(let p):
                            resolvePlane(
                                contact.body, on: p, x, v, a, pressing: &forces[4 * c], friction: &friction,
                                pushed: &pushed)
                        }
                        (forces[4 * c + 1], forces[4 * c + 2], forces[4 * c + 3]) = (friction.x, friction.y, friction.z)
                    }
                    if !pushed { break }
                }
            }
            if let pressing { for c in 0..<m { pressing[c] = forces[4 * c] } }
        }
    }

    /// Removes the acceleration of two pressed spheres' gap into each other (as they slide, with
    /// its `bending`), in equal and opposite forces; returns the relative acceleration removed.
    @inline(__always)
    private func resolvePair(
        _ b: Int, _ o: Int, _ x: UnsafePointer<Double>, _ a: UnsafeMutablePointer<Double>, bending: Double,
        pushed: inout Bool
    ) -> Double {
        let d = dimensions
        let separation = load(x, b, d) - load(x, o, d)
        let distance = (separation * separation).sum().squareRoot()
        let wb = inverseMasses[b], wo = inverseMasses[o]
        guard distance > 0, wb + wo > 0 else { return 0 }
        let n = separation / distance
        let ab = load(UnsafePointer(a), b, d), ao = load(UnsafePointer(a), o, d)
        let normal = ((ab - ao) * n).sum() + bending
        guard normal < -ContactTolerances.rounding * (1 + abs((ab * n).sum())) else { return 0 }
        let lambda = -normal / (wb + wo)
        store(ab + (lambda * wb) * n, a, b, d)
        store(ao - (lambda * wo) * n, a, o, d)
        pushed = true
        return -normal
    }

    /// Removes a body's acceleration into its plane (adding it to `pressing`, the normal
    /// acceleration removed so far) and sets the Coulomb friction bounded by `pressing`, in place
    /// of the `friction` applied before: against the sliding velocity; below `stickingSpeed`, held
    /// (whatever pulls along the plane, up to μ times the normal force, cancelled), or slipping
    /// against the pull beyond that.
    @inline(__always)
    private func resolvePlane(
        _ b: Int, on plane: Int, _ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>,
        _ a: UnsafeMutablePointer<Double>, pressing: inout Double, friction: inout SIMD3<Double>, pushed: inout Bool
    ) {
        let d = dimensions, n = planeNormals[plane]
        var ai = load(UnsafePointer(a), b, d)
        let normal = (ai * n).sum()
        if normal < 0 {
            ai -= normal * n
            pressing -= normal
            if normal < -ContactTolerances.rounding { pushed = true }
        }
        let mu = scene.planes[plane].friction
        guard mu > 0, pressing > 0 else {
            if normal < 0 { store(ai, a, b, d) }
            return  // pulled away and never pressed: the contact lets go (the simulator ends it)
        }
        let vi = load(v, b, d)
        // The acceleration along the plane without the friction applied so far.
        let free: SIMD3<Double> = ai - friction
        let updated = Self.coulomb(free: free, sliding: vi - (vi * n).sum() * n, limit: mu * pressing)
        ai = free + updated
        Self.note(updated - friction, against: free, pushed: &pushed)
        friction = updated
        store(ai, a, b, d)
    }

    /// Sets the Coulomb friction between two pressed spheres (bounded by `pressing`, the relative
    /// normal acceleration their force removed) in place of the `friction` applied before, as on a
    /// plane but on their relative motion across the line of centres: against their relative
    /// sliding velocity, or holding them while the relative acceleration across it is at most μ
    /// times the normal one. Equal and opposite forces: momentum is kept.
    @inline(__always)
    private func rubPair(
        _ b: Int, _ o: Int, _ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>,
        _ a: UnsafeMutablePointer<Double>, pressing: Double, friction: inout SIMD3<Double>, pushed: inout Bool
    ) {
        let d = dimensions, mu = scene.contacts?.friction ?? 0
        let separation = load(x, b, d) - load(x, o, d)
        let distance = (separation * separation).sum().squareRoot()
        let wb = inverseMasses[b], wo = inverseMasses[o]
        guard mu > 0, pressing > 0, distance > 0, wb + wo > 0 else { return }
        let n = separation / distance
        let ab = load(UnsafePointer(a), b, d), ao = load(UnsafePointer(a), o, d)
        let relative = ab - ao, u = load(v, b, d) - load(v, o, d)
        // The relative acceleration across the line of centres without the friction applied so far.
        let free: SIMD3<Double> = relative - (relative * n).sum() * n - friction
        let updated = Self.coulomb(free: free, sliding: u - (u * n).sum() * n, limit: mu * pressing)
        let change = updated - friction
        Self.note(change, against: free, pushed: &pushed)
        store(ab + (wb / (wb + wo)) * change, a, b, d)
        store(ao - (wo / (wb + wo)) * change, a, o, d)
        friction = updated
    }

    /// Coulomb's law on a contact's tangent, in relative accelerations: against the `sliding`
    /// velocity, `limit` (μ times the normal one) in full from the stopping speed, so that a
    /// body pushed past the sticking speed by a contact above does not meet the whole of it at
    /// once; below `stickingSpeed`, held (the `free` acceleration along the tangent cancelled, up
    /// to `limit`), or slipping against it beyond that.
    @inline(__always)
    static func coulomb(free: SIMD3<Double>, sliding: SIMD3<Double>, limit: Double) -> SIMD3<Double> {
        let speed = (sliding * sliding).sum().squareRoot()
        if speed > ContactTolerances.stickingSpeed {
            return -((limit * min(1, speed / ContactTolerances.stickingSpeed - 1) / speed) * sliding)
        }
        let pull = (free * free).sum().squareRoot()
        return pull <= limit ? -free : -((limit / pull) * free)
    }

    /// Notes in `pushed` a friction `change` beyond rounding of the `free` acceleration: the
    /// sweeps go on.
    @inline(__always)
    private static func note(_ change: SIMD3<Double>, against free: SIMD3<Double>, pushed: inout Bool) {
        let rounding = ContactTolerances.rounding * ContactTolerances.rounding * (1 + (free * free).sum())
        if (change * change).sum() > rounding { pushed = true }
    }

    /// The Coulomb coefficient of a resting contact: its plane's, or the scene's between spheres.
    func friction(of contact: RestingContact) -> Double {
        switch contact.collider {
        case .body: scene.contacts?.friction ?? 0
        case .plane(let p): scene.planes[p].friction
        }
    }

    @inline(__always)
    private func store(_ value: SIMD3<Double>, _ lanes: UnsafeMutablePointer<Double>, _ body: Int, _ d: Int) {
        for axis in 0..<d { lanes[body &* d &+ axis] = value[axis] }
    }
}
