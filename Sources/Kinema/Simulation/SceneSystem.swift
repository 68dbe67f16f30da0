import RealModule

/// A scene compiled for integration: body coordinates packed into the lanes of one vector `V`
/// (body i, axis a at lane `i·dimensions + a`): a SIMD vector up to 16 coordinates, a `FlatVector`
/// beyond. Forces are in flat arrays and computed by one pointer loop over the lanes
/// (`SceneLayout.accelerate`), the same for every `V`.
@_spi(Engine) public struct SceneSystem<V: StateVector>: SecondOrderSystem {
    public typealias Vector = V

    /// A body resting on a plane (see `RestingContact`), and the compiled scene: neither depends
    /// on `V`, so both are declared outside this generic type.
    @usableFromInline package typealias RestingContact = Kinema.RestingContact
    @usableFromInline typealias Layout = SceneLayout

    /// The scene and its compiled forces, behind one reference: integrators pass the system to
    /// every step, and a 193-byte struct was copied (memcpy) at each call where a 56-byte one is not.
    @usableFromInline let layout: Layout
    public var scene: PhysicsScene { layout.scene }
    @inlinable var dimensions: Int { layout.dimensions }
    /// Read while the system is alive: the layout owns the buffer.
    @inlinable var inverseMasses: UnsafeBufferPointer<Double> { layout.inverseMasses }
    @inlinable var gravity: SIMD3<Double> { layout.gravity }
    @inlinable var drag: Double { layout.drag }
    @inlinable var springs: UnsafeBufferPointer<CompiledSpring> { layout.springs }
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

    /// - Precondition: `V.laneCount >= scene.coordinateCount`.
    public init(scene: PhysicsScene) {
        self.init(layout: Layout(scene: scene))
    }

    /// The system of a scene compiled already (another vector type's, sharing its layout).
    init(layout: Layout) {
        precondition(V.laneCount >= layout.scene.coordinateCount, "vector too small for the scene")
        self.layout = layout
        let linear = Self.linearForces(layout.scene)
        self.linear =
            linear
            ?? LinearForces(
                gravity: .zero, anchor: .zero, stiffness: .zero, damping: .zero,
                negatedStiffness: .zero, hasGravity: false)
        isLinear = linear != nil
    }

    /// The per-lane forces when every spring ties one body to an anchor with rest length 0; nil
    /// otherwise. The sums per body (k, c) and per lane (k·anchor) in scratch space on the stack:
    /// three arrays were a quarter of the setup of a one-spring run.
    static func linearForces(_ scene: PhysicsScene) -> LinearForces? {
        let d = scene.dimensions, bodies = scene.bodies.count
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * bodies + scene.coordinateCount) { scratch in
            // k of body b at b, c at bodies + b, the weighted anchor of lane l at 2·bodies + l.
            scratch.initialize(repeating: 0)
            for b in 0..<bodies { scratch[bodies + b] = scene.drag }
            for spring in scene.springs {
                guard case let .anchor(b, at) = spring.ends, spring.restLength == 0 else { return nil }
                scratch[b] += spring.stiffness
                scratch[bodies + b] += spring.damping
                for axis in 0..<d { scratch[2 * bodies + b * d + axis] += spring.stiffness * at[axis] }
            }
            var forces = LinearForces(
                gravity: .zero, anchor: .zero, stiffness: .zero, damping: .zero,
                negatedStiffness: .zero, hasGravity: false)
            for (b, body) in scene.bodies.enumerated() {
                let inverseMass = body.inverseMass, k = scratch[b], c = scratch[bodies + b]
                for axis in 0..<d {
                    let lane = b * d + axis
                    forces.gravity[lane: lane] = body.isStatic ? 0 : scene.gravity[axis]
                    forces.anchor[lane: lane] = k > 0 ? scratch[2 * bodies + lane] / k : 0
                    forces.stiffness[lane: lane] = k * inverseMass
                    forces.damping[lane: lane] = c * inverseMass
                    forces.negatedStiffness[lane: lane] = -(k * inverseMass)
                    forces.hasGravity = forces.hasGravity || forces.gravity[lane: lane] != 0
                }
            }
            return forces
        }
    }

    /// PhysicsBody `body`'s 3-vector (unused axes 0) from a packed vector.
    @inlinable
    package func vector(_ packed: V, body: Int) -> SIMD3<Double> {
        // Built whole, not lane by lane: a store to a lane picked at run time and the read of the
        // whole vector after it stalled on store forwarding (a third of the energy check's time).
        let d = dimensions, base = body * d
        return SIMD3(packed[lane: base], d > 1 ? packed[lane: base + 1] : 0, d > 2 ? packed[lane: base + 2] : 0)
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
            set(&state.position, body: i, to: body.position)
            set(&state.velocity, body: i, to: body.velocity)
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
                // ignores), but the velocity's dependency chain is a multiply and a subtract, as in
                // a plain C spring: a one-spring step's latency is its cost.
                return V.lanewiseProduct(linear.negatedStiffness, position - linear.anchor)
                    - V.lanewiseProduct(linear.damping, velocity)
            }
            return linear.gravity - V.lanewiseProduct(linear.damping, velocity)
                - V.lanewiseProduct(linear.stiffness, position - linear.anchor)
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

    /// `body` of the acceleration with the resting contacts and of the normal acceleration each
    /// contact's force gives (0 where it does not press), in `resting`'s order.
    func withPressing<R>(position: V, velocity: V, _ body: (V, UnsafeBufferPointer<Double>) -> R) -> R {
        var a = V.zero(like: position)
        let layout = self.layout, resting = self.resting
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: resting.count) { pressing in
            V.withLanes(of: position) { x in
                V.withLanes(of: velocity) { v in
                    V.withMutableLanes(of: &a) { a in
                        layout.accelerate(position: x, velocity: v, into: a, resting: [])
                        layout.applyContacts(x, v, a, resting, pressing: pressing.baseAddress)
                    }
                }
            }
            return body(a, UnsafeBufferPointer(pressing))
        }
    }

    /// Total mechanical energy: kinetic + spring + gravitational potential (drag only removes it).
    /// Index loops over the compiled arrays: iterators over them, or over the scene's bodies (which
    /// copy their names), retained and released on every check.
    public func energy(of state: PhaseState<V>) -> Double {
        var total = 0.0
        let layout = self.layout
        for i in 0..<layout.inverseMasses.count where layout.inverseMasses[i] > 0 {  // static bodies hold none
            let v = vector(state.velocity, body: i), x = vector(state.position, body: i)
            total += (0.5 * (v * v).sum() - (layout.gravity * x).sum()) * layout.masses[i]
        }
        for s in 0..<layout.springs.count {
            let spring = layout.springs[s]
            let x1 = vector(state.position, body: spring.first)
            let x2 = spring.second < 0 ? spring.anchor : vector(state.position, body: spring.second)
            let d = x1 - x2
            let lengthSquared = (d * d).sum()
            // A zero-length spring's stretch is |d|: its square needs no square root.
            let stretchSquared =
                spring.restLength == 0 ? lengthSquared : Self.stretchSquared(lengthSquared, spring.restLength)
            total += 0.5 * spring.stiffness * stretchSquared
        }
        return total
    }

    /// Out of line, so that the optimizer does not take the square root for every spring and
    /// select (the root's latency was most of a one-spring energy check).
    @inline(never)
    static func stretchSquared(_ lengthSquared: Double, _ restLength: Double) -> Double {
        let stretch = lengthSquared.squareRoot() - restLength
        return stretch * stretch
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

/// A scene of `FlatVector`s is stepped in place by the flat storages, its resting contacts'
/// forces included.
@_spi(Engine) extension SceneSystem: LaneSystem where V == FlatVector {
    public var coordinateCount: Int { layout.inverseMasses.count * layout.dimensions }

    @inline(__always)
    public func accelerate(
        position: UnsafePointer<Double>, velocity: UnsafePointer<Double>,
        into acceleration: UnsafeMutablePointer<Double>
    ) {
        layout.accelerate(position: position, velocity: velocity, into: acceleration, resting: resting)
    }
}
