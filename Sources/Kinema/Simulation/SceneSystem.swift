import RealModule

/// A scene compiled for integration: body coordinates packed into the lanes of one vector `V`
/// (body i, axis a at lane `i·dimensions + a`): a SIMD vector up to 16 coordinates, a `FlatVector`
/// beyond. Forces are in flat arrays and computed by one pointer loop over the lanes
/// (`Layout.accelerate`), the same for every `V`.
public struct SceneSystem<V: StateVector>: SecondOrderSystem {
    public typealias Vector = V

    /// A body resting on a plane: its normal velocity is zero and the plane carries the normal
    /// force (`acceleration` removes the component into the plane and applies sliding friction).
    @usableFromInline package struct RestingContact: Hashable, Sendable {
        @usableFromInline package var body: Int
        @usableFromInline package var plane: Int
    }

    /// The scene and its compiled forces, behind one reference: integrators pass the system to
    /// every step, and a 193-byte struct was copied (memcpy) at each call where a 56-byte one is not.
    @usableFromInline let layout: Layout
    public var scene: PhysicsScene { layout.scene }
    @inlinable var dimensions: Int { layout.dimensions }
    @inlinable var inverseMasses: [Double] { layout.inverseMasses }
    @inlinable var gravity: SIMD3<Double> { layout.gravity }
    @inlinable var drag: Double { layout.drag }
    @inlinable var springs: [CompiledSpring] { layout.springs }
    @inlinable var planeNormals: [SIMD3<Double>] { layout.planeNormals }
    /// Contacts in force now.
    @usableFromInline package var resting: [RestingContact] = []
    /// Bodies each under their own linear springs to anchors (rest length 0), gravity and drag:
    /// `a = g − c·v − k·(x − anchor)` per unit mass, lane-wise in `V`, without the general loops.
    /// The common spring case (one body, 1–3 D), and a batch of independent springs, one per lane.
    /// Zero forces when `isLinear` is false (not an optional: unwrapping one copies all four
    /// vectors in every evaluation).
    @usableFromInline let linear: LinearForces
    @usableFromInline let isLinear: Bool

    @usableFromInline
    struct LinearForces: Sendable {
        @usableFromInline var gravity: V
        @usableFromInline var anchor: V
        @usableFromInline var stiffness: V
        @usableFromInline var damping: V
        /// −stiffness, and whether any lane has gravity: without it the acceleration is
        /// `(−k)·(x − anchor) − c·v`, the same value one operation shorter on the velocity's path.
        @usableFromInline var negatedStiffness: V
        @usableFromInline var hasGravity: Bool
    }

    @usableFromInline
    final class Layout: Sendable {
        @usableFromInline let scene: PhysicsScene
        @usableFromInline let dimensions: Int
        @usableFromInline let inverseMasses: [Double]
        @usableFromInline let gravity: SIMD3<Double>
        @usableFromInline let drag: Double
        @usableFromInline let springs: [CompiledSpring]
        @usableFromInline let planeNormals: [SIMD3<Double>]
        /// Copies of the bodies' radii and the planes' offsets: the collision search reads them for
        /// every body in every step, and reading them through the scene copies each body (its name
        /// and arrays retained and released).
        let radii: [Double]
        let planeOffsets: [Double]

        init(scene: PhysicsScene) {
            self.scene = scene
            dimensions = scene.dimensions
            inverseMasses = scene.bodies.map(\.inverseMass)
            gravity = SceneSystem.pad(scene.gravity)
            drag = scene.drag
            springs = scene.springs.map { spring in
                switch spring.ends {
                case let .anchor(body, at):
                    return CompiledSpring(first: body, second: -1, anchor: SceneSystem.pad(at), stiffness: spring.stiffness,
                                          damping: spring.damping, restLength: spring.restLength)
                case let .bodies(a, b):
                    return CompiledSpring(first: a, second: b, anchor: .zero, stiffness: spring.stiffness,
                                          damping: spring.damping, restLength: spring.restLength)
                }
            }
            planeNormals = scene.planes.map { SceneSystem.pad($0.normal) }
            radii = scene.bodies.map(\.radius)
            planeOffsets = scene.planes.map(\.offset)
        }

        /// Body `body`'s 3-vector (unused axes 0) from contiguous lanes, `d` per body.
        @inline(__always)
        func load(_ lanes: UnsafePointer<Double>, _ body: Int, _ d: Int) -> SIMD3<Double> {
            var v = SIMD3<Double>.zero
            for axis in 0..<d { v[axis] = lanes[body * d + axis] }
            return v
        }

        @inline(__always)
        func add(_ v: SIMD3<Double>, to lanes: UnsafeMutablePointer<Double>, _ body: Int, _ d: Int) {
            for axis in 0..<d { lanes[body * d + axis] += v[axis] }
        }

        /// Gravity, drag, springs and resting contacts into `a` (every lane of the scene written).
        @usableFromInline
        func accelerate(position x: UnsafePointer<Double>, velocity v: UnsafePointer<Double>,
                        into a: UnsafeMutablePointer<Double>, resting: [RestingContact]) {
            // One copy of the loops per dimension, so each has constant bounds (unrolled, no
            // per-axis branches): 1.6× faster on the 1,000-body 3-D chain (132 → 83 ns per RK4
            // body-step) than one loop over a runtime `d`.
            switch dimensions {
            case 1: accelerate(x, v, a, dimensions: 1)
            case 2: accelerate(x, v, a, dimensions: 2)
            default: accelerate(x, v, a, dimensions: 3)
            }
            applyContacts(v, a, resting)
        }

        @inline(__always)
        func accelerate(_ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>, _ a: UnsafeMutablePointer<Double>,
                        dimensions d: Int) {
            inverseMasses.withUnsafeBufferPointer { w in
                for i in 0..<w.count {
                    let drag = self.drag * w[i]
                    for axis in 0..<d {
                        a[i * d + axis] = w[i] == 0 ? 0 : gravity[axis] - drag * v[i * d + axis]  // static: none
                    }
                }
                springs.withUnsafeBufferPointer { springs in
                    for spring in springs {
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
            }
        }

        /// f(y) = (velocities, accelerations) of a state laid out as positions then velocities, into
        /// `k`: the stage derivative of the flat-storage integrators.
        func derivative(of y: UnsafePointer<Double>, into k: UnsafeMutablePointer<Double>, resting: [RestingContact]) {
            let n = inverseMasses.count * dimensions
            for i in 0..<n { k[i] = y[n + i] }
            accelerate(position: y, velocity: y + n, into: k + n, resting: resting)
        }

        /// Resting contacts: the normal component into the plane removed, sliding friction added.
        func applyContacts(_ v: UnsafePointer<Double>, _ a: UnsafeMutablePointer<Double>, _ resting: [RestingContact]) {
            let d = dimensions
            for contact in resting {
                let n = planeNormals[contact.plane]
                var ai = load(UnsafePointer(a), contact.body, d)
                let normal = (ai * n).sum()
                guard normal < 0 else { continue }  // pulled away: the contact lets go (the simulator ends it)
                ai -= normal * n
                let vi = load(v, contact.body, d)
                let tangential = vi - (vi * n).sum() * n
                let speed = (tangential * tangential).sum().squareRoot()
                let mu = scene.planes[contact.plane].friction
                if mu > 0 && speed > 0 {
                    // Coulomb sliding friction, smoothed below 1e-6 units/s so it cannot chatter.
                    ai -= (mu * -normal * min(1, speed / 1e-6) / speed) * tangential
                }
                for axis in 0..<d { a[contact.body * d + axis] = ai[axis] }
            }
        }
    }

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

    /// - Precondition: `V.laneCount >= scene.coordinateCount`.
    public init(scene: PhysicsScene) {
        precondition(V.laneCount >= scene.coordinateCount, "vector too small for the scene")
        layout = Layout(scene: scene)
        let linear = Self.linearForces(scene)
        self.linear = linear ?? LinearForces(gravity: .zero, anchor: .zero, stiffness: .zero, damping: .zero,
                                                negatedStiffness: .zero, hasGravity: false)
        isLinear = linear != nil
    }

    static func linearForces(_ scene: PhysicsScene) -> LinearForces? {
        let d = scene.dimensions
        var k = [Double](repeating: 0, count: scene.bodies.count)
        var c = [Double](repeating: scene.drag, count: scene.bodies.count)
        var weighted = [Double](repeating: 0, count: scene.coordinateCount)
        for spring in scene.springs {
            guard case let .anchor(b, at) = spring.ends, spring.restLength == 0 else { return nil }
            k[b] += spring.stiffness
            c[b] += spring.damping
            for axis in 0..<d { weighted[b * d + axis] += spring.stiffness * at[axis] }
        }
        var forces = LinearForces(gravity: .zero, anchor: .zero, stiffness: .zero, damping: .zero,
                                  negatedStiffness: .zero, hasGravity: false)
        for (b, body) in scene.bodies.enumerated() {
            let inverseMass = body.inverseMass
            for axis in 0..<d {
                let lane = b * d + axis
                forces.gravity[lane: lane] = body.isStatic ? 0 : scene.gravity[axis]
                forces.anchor[lane: lane] = k[b] > 0 ? weighted[lane] / k[b] : 0
                forces.stiffness[lane: lane] = k[b] * inverseMass
                forces.damping[lane: lane] = c[b] * inverseMass
                forces.negatedStiffness[lane: lane] = -(k[b] * inverseMass)
                forces.hasGravity = forces.hasGravity || forces.gravity[lane: lane] != 0
            }
        }
        return forces
    }

    static func pad(_ components: [Double]) -> SIMD3<Double> {
        var v = SIMD3<Double>.zero
        for (i, x) in components.enumerated() { v[i] = x }
        return v
    }

    /// PhysicsBody `body`'s 3-vector (unused axes 0) from a packed vector.
    @inlinable
    package func vector(_ packed: V, body: Int) -> SIMD3<Double> {
        var v = SIMD3<Double>.zero
        for axis in 0..<dimensions { v[axis] = packed[lane: body * dimensions + axis] }
        return v
    }

    /// Writes body `body`'s 3-vector into a packed vector.
    @inlinable
    package func set(_ packed: inout V, body: Int, to v: SIMD3<Double>) {
        for axis in 0..<dimensions { packed[lane: body * dimensions + axis] = v[axis] }
    }

    /// The packed initial state.
    public var initialState: PhaseState<V> {
        var state = PhaseState<V>.zero
        state.position[lane: scene.coordinateCount - 1] = 0  // sizes a flat vector once
        state.velocity[lane: scene.coordinateCount - 1] = 0
        for (i, body) in scene.bodies.enumerated() {
            set(&state.position, body: i, to: Self.pad(body.position))
            set(&state.velocity, body: i, to: Self.pad(body.velocity))
        }
        return state
    }

    /// The linear case inline (a few multiply-adds, in every stage of every step); the general
    /// loops out of line, so they do not stop the integrators' steps from inlining this.
    @inlinable @inline(__always)
    public func acceleration(position: V, velocity: V, time: Double) -> V {
        if isLinear && resting.isEmpty {
            if !linear.hasGravity {
                // = (0 − c·v) − k·(x − anchor) to the bit (sum order aside, which IEEE addition
                // ignores), but the velocity's path is a multiply and a subtract, as a plain C
                // spring's: RK4 through `kinema simulate` 27.5 → 16.5 ns per step (the C loop: 17.2).
                return V.lanewiseProduct(linear.negatedStiffness, position - linear.anchor) - V.lanewiseProduct(linear.damping, velocity)
            }
            return linear.gravity - V.lanewiseProduct(linear.damping, velocity) - V.lanewiseProduct(linear.stiffness, position - linear.anchor)
        }
        return generalAcceleration(position: position, velocity: velocity)
    }

    @inlinable @inline(never)
    func generalAcceleration(position: V, velocity: V) -> V {
        var a = V.zero(like: position)
        let layout = self.layout, resting = self.resting
        V.withLanes(of: position) { x in
            V.withLanes(of: velocity) { v in
                V.withMutableLanes(of: &a) { layout.accelerate(position: x, velocity: v, into: $0, resting: resting) }
            }
        }
        return a
    }

    /// Total mechanical energy: kinetic + spring + gravitational potential (drag only removes it).
    /// Index loops over the compiled arrays: iterators over them, or over the scene's bodies (which
    /// copy their names), retained and released on every check.
    public func energy(of state: PhaseState<V>) -> Double {
        var total = 0.0
        let layout = self.layout
        for i in 0..<layout.inverseMasses.count where layout.inverseMasses[i] > 0 {  // static bodies hold none
            let mass = 1 / layout.inverseMasses[i]
            let v = vector(state.velocity, body: i), x = vector(state.position, body: i)
            total += 0.5 * mass * (v * v).sum() - mass * (layout.gravity * x).sum()
        }
        for s in 0..<layout.springs.count {
            let spring = layout.springs[s]
            let x1 = vector(state.position, body: spring.first)
            let x2 = spring.second < 0 ? spring.anchor : vector(state.position, body: spring.second)
            let d = x1 - x2
            let stretch = (d * d).sum().squareRoot() - spring.restLength
            total += 0.5 * spring.stiffness * stretch * stretch
        }
        return total
    }

    /// The stiffest spring's angular frequency and its damping ratio, which set the step limits.
    public var stiffestMode: (omega: Double, dampingRatio: Double) {
        var best = (omega: 0.0, dampingRatio: 1.0)
        for spring in springs {
            let inverseMass = inverseMasses[spring.first] + (spring.second >= 0 ? inverseMasses[spring.second] : 0)
            let omega = (spring.stiffness * inverseMass).squareRoot()
            if omega > best.omega {
                best = (omega, omega > 0 ? spring.damping * inverseMass / (2 * omega) : 1)
            }
        }
        if best.omega == 0, drag > 0, let heaviest = inverseMasses.max() {
            best = (drag * heaviest / 2, 1)  // a pure decay rate b/m behaves like ζ = 1 at ω = b/(2m)
        }
        return best
    }
}
