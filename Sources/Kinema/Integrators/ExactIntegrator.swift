import RealModule

/// The analytic solution of a linear scene: one body under springs to anchors (rest length 0),
/// uniform gravity and linear drag, per axis; or any number of bodies under gravity and drag
/// alone. Between impacts it is exact; impacts are located on the exact motion, so a scene of many
/// bodies runs event to event as hard-sphere simulations do. With springs each axis is a
/// `DampedHarmonicOscillator` about the equilibrium shifted by gravity; without, a ballistic arc
/// (with drag: the exponential approach to terminal velocity).
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
    /// Per body, several bodies: whether it is held at rest by its contacts (it stays put).
    var held: [Bool] = []
    /// A body in resting contact that still moves (sliding), named in the error of the next step.
    var sliding: Int?

    /// - Throws: `KinemaError` unless the scene has one body and only linear forces, or any
    ///   number of bodies and no springs.
    public init(system: System, state: State) throws {
        let scene = system.scene
        isBallistic = scene.bodies.count > 1
        guard !isBallistic || scene.springs.isEmpty else {
            throw KinemaError(
                parameter: "integrator exact", value: "\(scene.bodies.count) bodies with springs",
                rule: "used on one body, or on bodies without springs (use dopri5 or dop853)")
        }
        // The scene system already reduces one body's linear forces to per-unit-mass k, c and anchor.
        guard isBallistic || system.isLinear else {
            throw KinemaError(
                parameter: "integrator exact", value: "a spring with a rest length or between bodies",
                rule: "used with linear springs to anchors only")
        }
        self.system = system
        stiffness = isBallistic ? 0 : system.linear.stiffness[lane: 0]
        damping = isBallistic ? system.drag : system.linear.damping[lane: 0]
        anchor = isBallistic ? .zero : system.vector(system.linear.anchor, body: 0)
        // A quarter period bounds the step only where impacts are searched for on it (so a crossing
        // cannot hide inside one step); without colliders the closed form takes any step, and a
        // stiff spring (k = 1e15: 5·10⁶ periods a second) costs its samples, not its periods.
        maximumStep = stiffness > 0 && system.scene.hasColliders ? 0.25 * 2 * .pi / stiffness.squareRoot() : .infinity
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

    /// Which bodies their contacts hold still, and whether one in contact slides (which the arcs
    /// cannot follow).
    mutating func findHeldBodies() {
        let count = system.scene.bodies.count, d = system.scene.dimensions
        held = [Bool](repeating: false, count: count)
        sliding = nil
        guard !system.resting.isEmpty else { return }
        let a = system.acceleration(position: segmentState.position, velocity: segmentState.velocity, time: _time)
        // Still to rounding: the contact solver leaves a residue of about 1e-12 of gravity.
        let g = (system.gravity * system.gravity).sum().squareRoot()
        for contact in system.resting {
            for b in [contact.body, contact.other] where b >= 0 {
                let still = (0..<d).allSatisfy {
                    abs(segmentState.velocity[lane: b * d + $0]) <= 1e-9 && abs(a[lane: b * d + $0]) <= 1e-9 * (1 + g)
                }
                if still { held[b] = true } else if sliding == nil { sliding = b }
            }
        }
    }

    public mutating func advance(toward limit: Double) throws {
        if isBallistic, sliding != nil {
            throw KinemaError(
                parameter: "integrator exact", value: "a body sliding in resting contact",
                rule: "used only until bodies come to rest (use dopri5)")
        }
        if !isBallistic && !system.resting.isEmpty {
            let a = system.acceleration(position: segmentState.position, velocity: segmentState.velocity, time: _time)
            let moving = (0..<V.laneCount(of: a)).contains { segmentState.velocity[lane: $0] != 0 || a[lane: $0] != 0 }
            guard !moving else {
                throw KinemaError(
                    parameter: "integrator exact", value: "a body sliding in resting contact",
                    rule: "used only until bodies come to rest (use dopri5)")
            }
        }
        _previousTime = _time
        _time = min(limit, _time + maximumStep)
        _steps += 1
    }

    public func interpolate(at t: Double) -> State { evaluate(at: t) }

    func evaluate(at t: Double) -> State {
        if isBallistic { return arcs(at: t) }
        if !system.resting.isEmpty { return segmentState }  // at rest (checked in advance)
        let s = t - segmentStart
        var position = SIMD3<Double>.zero, velocity = SIMD3<Double>.zero
        if stiffness > 0 {
            if oscillators.isEmpty { position = SIMD3(repeating: .nan); velocity = position }
            for (axis, oscillator) in oscillators.enumerated() {
                position[axis] = oscillator.position(at: s)
                velocity[axis] = oscillator.velocity(at: s)
            }
        } else {
            let x0 = system.vector(segmentState.position, body: 0), v0 = system.vector(segmentState.velocity, body: 0)
            let g = system.gravity
            if damping == 0 {
                position = x0 + s * v0 + (0.5 * s * s) * g
                velocity = v0 + s * g
            } else {
                let rate = damping
                let terminal = g / rate
                let decayed = -Double.expMinusOne(-rate * s)  // 1 − e^(−rate·s), accurate for small s
                position = x0 + s * terminal + (decayed / rate) * (v0 - terminal)
                velocity = terminal + (1 - decayed) * (v0 - terminal)
            }
        }
        var result = State.zero
        system.set(&result.position, body: 0, to: position)
        system.set(&result.velocity, body: 0, to: velocity)
        return result
    }

    /// Every body on its arc from the segment's start (static and held bodies stay put).
    func arcs(at t: Double) -> State {
        let s = t - segmentStart, g = system.gravity
        var result = segmentState
        for b in 0..<system.scene.bodies.count where system.inverseMasses[b] > 0 {
            if held[b] {
                system.set(&result.velocity, body: b, to: .zero)
                continue
            }
            let x0 = system.vector(segmentState.position, body: b), v0 = system.vector(segmentState.velocity, body: b)
            let rate = damping * system.inverseMasses[b]
            if rate == 0 {
                system.set(&result.position, body: b, to: x0 + s * v0 + (0.5 * s * s) * g)
                system.set(&result.velocity, body: b, to: v0 + s * g)
            } else {
                let terminal = g / rate, decayed = -Double.expMinusOne(-rate * s)
                system.set(&result.position, body: b, to: x0 + s * terminal + (decayed / rate) * (v0 - terminal))
                system.set(&result.velocity, body: b, to: terminal + (1 - decayed) * (v0 - terminal))
            }
        }
        return result
    }
}
