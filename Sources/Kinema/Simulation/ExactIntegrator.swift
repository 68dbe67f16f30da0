import RealModule

/// The analytic solution of a linear scene: one body under springs to anchors (rest length 0),
/// uniform gravity and linear drag, per axis; any number of bodies under gravity and drag alone;
/// or bodies joined by springs whose forces are affine (rest length 0, or in 1-D while each spring
/// keeps its ends in order), up to `largestAffineScene` coordinates. Between impacts it is exact;
/// impacts are located on the exact motion, so a scene of many bodies runs event to event as
/// hard-sphere simulations do. One body's springs make a `DampedHarmonicOscillator` per axis about
/// the equilibrium shifted by gravity; bodies without springs follow ballistic arcs (with drag:
/// the exponential approach to terminal velocity); bodies joined by springs follow the matrix
/// exponential of their linear system (`AffineMotion`).
@_spi(Engine) public struct ExactIntegrator<V: StateVector>: Integrator {
    public typealias System = SceneSystem<V>
    public typealias State = PhaseState<V>

    public var system: System
    public var time: Double { _time }
    @usableFromInline var _time: Double
    public var state: State { evaluate(at: _time) }
    public var previousTime: Double { _previousTime }
    @usableFromInline var _previousTime: Double
    public var steps: Int { _steps }
    @usableFromInline var _steps = 0
    public var evaluations: Int { 0 }

    /// Per unit mass: k/m and c/m (drag included), and the stiffness-weighted anchor.
    let stiffness: Double, damping: Double, anchor: SIMD3<Double>
    var segmentStart: Double
    var segmentState: State
    var oscillators: [DampedHarmonicOscillator] = []
    /// Steps no longer than a quarter period, so no crossing can enter and leave unseen.
    let maximumStep: Double
    /// Several bodies, each on its own arc (no springs).
    let isBallistic: Bool
    /// Several bodies with springs, or one with a spring of some rest length (1-D): the matrix
    /// exponential of the segment's linear system, made at each restart.
    let isAffine: Bool
    var affine: AffineMotion?
    /// Per spring with a rest length (1-D): the sign its length had at the segment's start, which
    /// keeps its force affine.
    var springSides: [Double] = []
    /// The most coordinates the affine motion takes: its cost per evaluation grows as their cube
    /// (48: a 97 × 97 matrix exponential, about 3 ms).
    public static var largestAffineScene: Int { 48 }
    /// Per body, several bodies: whether it is held at rest by its contacts (it stays put).
    var held: [Bool] = []
    /// Per body, several bodies: the constant acceleration of a body sliding on planes alone, its
    /// contacts' forces included (gravity's component along them, less friction along a straight
    /// line), drag aside; nil for a body in flight or held.
    var gliding: [SIMD3<Double>?] = []
    /// A body in resting contact that still moves, on a sphere or turned by friction (the arcs
    /// cannot follow it), named in the error of the next step.
    var sliding: Int?

    /// - Throws: `KinemaError` for springs whose forces are not linear (a rest length beyond
    ///   1-D) or a scene joined by springs past `largestAffineScene` coordinates.
    public init(system: System, state: State) throws {
        let scene = system.scene
        isBallistic = scene.bodies.count > 1 && scene.springs.isEmpty
        // The scene system already reduces one body's linear forces to per-unit-mass k, c and anchor.
        isAffine = !isBallistic && (scene.bodies.count > 1 || !system.isLinear)
        if isAffine {
            guard scene.dimensions == 1 || scene.springs.allSatisfy({ $0.restLength == 0 }) else {
                throw KinemaError(
                    parameter: "integrator exact", value: "a spring with a rest length in \(scene.dimensions)-D",
                    rule: "used with springs of rest length 0 (or any in 1-D), whose forces are linear (use dopri5)")
            }
            guard scene.coordinateCount <= Self.largestAffineScene else {
                throw KinemaError(
                    parameter: "integrator exact", value: "\(scene.coordinateCount) coordinates joined by springs",
                    rule: "at most \(Self.largestAffineScene) (use dopri5 or dop853)")
            }
        }
        self.system = system
        stiffness = isBallistic || isAffine ? 0 : system.linear.stiffness[lane: 0]
        damping = isBallistic ? system.drag : isAffine ? 0 : system.linear.damping[lane: 0]
        anchor = isBallistic || isAffine ? .zero : system.vector(system.linear.anchor, body: 0)
        // A quarter period bounds the step only where impacts are searched for on it (so a crossing
        // cannot hide inside one step) or a spring's rest length must keep its ends in order;
        // without them the closed form takes any step, and a stiff spring (k = 1e15: 5·10⁶ periods
        // a second) costs its samples, not its periods.
        if isAffine {
            let motion = Self.affineMotion(system, state)
            let checked = scene.hasColliders || scene.springs.contains { $0.restLength > 0 }
            maximumStep = checked ? 0.25 * 2 * .pi / motion.rateBound : .infinity
        } else {
            maximumStep =
                stiffness > 0 && system.scene.hasColliders ? 0.25 * 2 * .pi / stiffness.squareRoot() : .infinity
        }
        _time = 0
        _previousTime = 0
        segmentStart = 0
        segmentState = state
        restart(at: 0, state: state)
    }

    public mutating func restart(at time: Double, state: State) {
        _time = time
        _previousTime = time
        segmentStart = time
        segmentState = state
        oscillators = []
        if isBallistic { findHeldBodies() }
        if isAffine {
            affine = Self.affineMotion(system, state)
            springSides = springLengths(state.position)
        }
        guard stiffness > 0 else { return }
        let x0 = system.vector(state.position, body: 0), v0 = system.vector(state.velocity, body: 0)
        let target = anchor + (1 / stiffness) * system.gravity
        for axis in 0..<system.scene.dimensions {
            // Only a non-finite state can be refused here; then no oscillator is made and the
            // state evaluates to NaN, which the simulation loop reports as an instability.
            guard
                let oscillator = try? DampedHarmonicOscillator(
                    mass: 1, stiffness: stiffness, damping: damping,
                    target: target[axis], initialPosition: x0[axis], initialVelocity: v0[axis])
            else { oscillators = []; return }
            oscillators.append(oscillator)
        }
    }

    /// Which bodies their contacts hold still, which slide on planes alone (the forces of such
    /// contacts stay constant while the body keeps a straight line, so its motion stays an arc),
    /// and whether one moves in another contact (which the arcs cannot follow).
    mutating func findHeldBodies() {
        let count = system.scene.bodies.count, d = system.scene.dimensions
        held = [Bool](repeating: false, count: count)
        gliding = [SIMD3<Double>?](repeating: nil, count: count)
        sliding = nil
        guard !system.resting.isEmpty else { return }
        let v = segmentState.velocity
        let a = system.acceleration(position: segmentState.position, velocity: v, time: _time)
        // Still to rounding: the contact solver leaves a residue of about 1e-12 of gravity.
        let g = (system.gravity * system.gravity).sum().squareRoot()
        var onSphere = [Bool](repeating: false, count: count), rubbing = onSphere
        for contact in system.resting {
            if let o = contact.other { (onSphere[contact.body], onSphere[o]) = (true, true) }
            if system.layout.friction(of: contact) > 0 { rubbing[contact.body] = true }
        }
        for contact in system.resting {
            for b in contact.bodies where !held[b] && gliding[b] == nil {
                let still = (0..<d).allSatisfy {
                    abs(v[lane: b * d + $0]) <= ContactTolerances.stillness
                        && abs(a[lane: b * d + $0]) <= ContactTolerances.stillness * (1 + g)
                }
                let ab = system.vector(a, body: b), vb = system.vector(v, body: b), speed2 = (vb * vb).sum()
                // The acceleration across the velocity: friction keeps a straight line only without it.
                let turning = speed2 > 0 ? ab - ((ab * vb).sum() / speed2) * vb : .zero
                let straight =
                    (turning * turning).sum().squareRoot() <= ContactTolerances.rounding
                    * (1 + (ab * ab).sum().squareRoot())
                if still {
                    held[b] = true
                } else if !onSphere[b] && (!rubbing[b] || straight) {
                    gliding[b] = ab + (damping * system.inverseMasses[b]) * vb
                } else if sliding == nil {
                    sliding = b
                }
            }
        }
    }

    public mutating func advance(toward limit: Double) throws {
        if isBallistic ? sliding != nil : !system.resting.isEmpty && isMovingInContact {
            let body = sliding.map { "body '\(system.scene.bodies[$0].name)'" } ?? "a body"
            throw KinemaError(
                parameter: "integrator exact", value: "\(body) sliding in resting contact at t = \(_time) s",
                rule: "used only until bodies come to rest, or slide on planes alone (use moreau-jean for piles)")
        }
        let next = min(limit, _time + maximumStep)
        if isAffine && system.resting.isEmpty {
            let lengths = springLengths(evaluate(at: next).position)
            for (before, after) in zip(springSides, lengths) where !(before * after > 0) {
                throw KinemaError(
                    parameter: "integrator exact", value: "a spring with a rest length whose ends pass each other",
                    rule: "used while each such spring keeps its ends in order, where its force is linear (use dopri5)")
            }
        }
        _previousTime = _time
        _time = next
        _steps += 1
    }

    /// Whether anything moves or accelerates at the segment's start (one body or bodies joined by
    /// springs, with resting contacts: the closed forms hold only at rest).
    var isMovingInContact: Bool {
        let a = system.acceleration(position: segmentState.position, velocity: segmentState.velocity, time: _time)
        return (0..<V.laneCount(of: a)).contains { segmentState.velocity[lane: $0] != 0 || a[lane: $0] != 0 }
    }

    /// The linear system at `state` and its motion from there.
    static func affineMotion(_ system: System, _ state: State) -> AffineMotion {
        let n = system.scene.coordinateCount
        let (positionPartials, velocityPartials) = system.jacobian(position: state.position, velocity: state.velocity)
        let a = system.acceleration(position: state.position, velocity: state.velocity, time: 0)
        return AffineMotion(
            positionPartials: positionPartials, velocityPartials: velocityPartials,
            position: (0..<n).map { state.position[lane: $0] }, velocity: (0..<n).map { state.velocity[lane: $0] },
            acceleration: (0..<n).map { a[lane: $0] })
    }

    /// The signed length of each spring with a rest length (1-D: first end minus second).
    func springLengths(_ position: V) -> [Double] {
        system.springs.filter { $0.restLength > 0 }.map { spring in
            position[lane: spring.first] - (spring.second < 0 ? spring.anchor.x : position[lane: spring.second])
        }
    }

    public func interpolate(at t: Double) -> State { evaluate(at: t) }

    func evaluate(at t: Double) -> State {
        if isBallistic { return arcs(at: t) }
        if !system.resting.isEmpty { return segmentState }  // at rest (checked in advance)
        if let affine {
            let z = affine.state(after: t - segmentStart), n = affine.n
            var result = State.zero(like: segmentState)
            for i in 0..<n {
                result.position[lane: i] = z[i]
                result.velocity[lane: i] = z[n + i]
            }
            return result
        }
        let s = t - segmentStart
        var position = SIMD3<Double>.zero, velocity = SIMD3<Double>.zero
        if stiffness > 0 {
            if oscillators.isEmpty { position = SIMD3(repeating: .nan); velocity = position }
            for (axis, oscillator) in oscillators.enumerated() {
                position[axis] = oscillator.position(at: s)
                velocity[axis] = oscillator.velocity(at: s)
            }
        } else {
            (position, velocity) = Self.arc(
                system.vector(segmentState.position, body: 0), system.vector(segmentState.velocity, body: 0),
                gravity: system.gravity, drag: damping, after: s)
        }
        var result = State.zero
        system.set(&result.position, body: 0, to: position)
        system.set(&result.velocity, body: 0, to: velocity)
        return result
    }

    /// Every body on its arc from the segment's start (static and held bodies stay put).
    func arcs(at t: Double) -> State {
        var result = segmentState
        for b in 0..<system.scene.bodies.count where system.inverseMasses[b] > 0 {
            if held[b] {
                system.set(&result.velocity, body: b, to: .zero)
                continue
            }
            let (x, v) = Self.arc(
                system.vector(segmentState.position, body: b), system.vector(segmentState.velocity, body: b),
                gravity: gliding[b] ?? system.gravity, drag: damping * system.inverseMasses[b], after: t - segmentStart)
            system.set(&result.position, body: b, to: x)
            system.set(&result.velocity, body: b, to: v)
        }
        return result
    }

    /// The arc from (x0, v0) after s under gravity and linear drag (per unit mass): without drag
    /// the parabola; with it the exponential approach to the terminal velocity g/drag.
    static func arc(
        _ x0: SIMD3<Double>, _ v0: SIMD3<Double>, gravity g: SIMD3<Double>, drag rate: Double, after s: Double
    ) -> (position: SIMD3<Double>, velocity: SIMD3<Double>) {
        if rate == 0 { return (x0 + s * v0 + (0.5 * s * s) * g, v0 + s * g) }
        let terminal = g / rate
        let decayed = -Double.expMinusOne(-rate * s)  // 1 − e^(−rate·s), accurate for small s
        return (x0 + s * terminal + (decayed / rate) * (v0 - terminal), terminal + (1 - decayed) * (v0 - terminal))
    }
}
