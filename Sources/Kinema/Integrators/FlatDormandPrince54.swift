import RealModule

/// Dormand–Prince 5(4) on a scene in flat storage, stage by stage in place: the lanes of
/// `DormandPrince54`'s arithmetic (same operations, same order, same step control), in loops over
/// one workspace allocated at creation, so both agree to the last bit and a step allocates nothing.
///
/// The workspace holds each 2n-lane vector (positions, then velocities) contiguously: the state at
/// the step's start, the seven stages' derivatives, the stage being built, the new state, and the
/// five dense-output coefficients.
@_spi(Engine) public struct FlatDormandPrince54: Integrator {
    public typealias System = SceneSystem<FlatVector>
    public typealias State = PhaseState<FlatVector>

    /// Setting it (a contact starting or ending) recomputes the derivative the next step starts from.
    public var system: System {
        didSet { evaluateDerivative() }
    }
    public let absoluteTolerance: Double
    public let relativeTolerance: Double
    public private(set) var time: Double
    public private(set) var state: State
    public private(set) var previousTime: Double
    public private(set) var steps = 0
    public var rejectedSteps: Int { control.rejectedSteps }
    public private(set) var evaluations = 0

    var control = StepSizeController(.dormandPrince54, stepSize: 0)
    var work: [Double]
    /// Coordinates (n); each slot of the workspace holds 2n lanes.
    let count: Int

    // Slots: y (step start), k1…k7, stage, y1, r1…r5.
    static let y = 0, k1 = 1, stage = 8, y1 = 9, r1 = 10, slots = 15

    /// - Precondition: tolerances finite and > 0 (validated by the callers that take user input).
    public init(system: System, time: Double = 0, state: State, absoluteTolerance: Double, relativeTolerance: Double) {
        precondition(absoluteTolerance > 0 && relativeTolerance >= 0, "tolerances must be > 0")
        count = system.scene.coordinateCount
        work = Array(repeating: 0, count: Self.slots * 2 * count)
        self.system = system
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
        self.time = time
        self.state = state.owned(sizedTo: count)
        previousTime = time
        load(self.state)
        evaluateDerivative()
        startStepSize()
    }

    /// Copies `state` into the y slot (positions, then velocities) and into r1 (the interpolant's
    /// value at a step of length 0).
    mutating func load(_ state: State) {
        let n = count
        work.withUnsafeMutableBufferPointer { w in
            state.write(to: w.baseAddress!, count: n)
            for i in 0..<2 * n { w[Self.r1 * 2 * n + i] = w[i] }
        }
    }

    /// The derivative at the y slot into k1.
    mutating func evaluateDerivative() {
        let n = count, layout = system.layout, resting = system.resting
        work.withUnsafeMutableBufferPointer { w in
            layout.derivative(
                of: w.baseAddress! + Self.y * 2 * n, into: w.baseAddress! + Self.k1 * 2 * n, resting: resting)
        }
        evaluations += 1
    }

    mutating func startStepSize() {
        let derivative = work.withUnsafeBufferPointer {
            State(lanes: $0.baseAddress! + Self.k1 * 2 * count, count: count)
        }
        control.restart(
            stepSize: initialStep(
                system, time: time, state: state, derivative: derivative, order: 4,
                absolute: absoluteTolerance, relative: relativeTolerance, maximumStep: .infinity))
        evaluations += 1
    }

    public mutating func advance(toward limit: Double) throws {
        let t = time, m = 2 * count, layout = system.layout, resting = system.resting
        let atol = absoluteTolerance, rtol = relativeTolerance
        for _ in 0..<10_000 {
            let remaining = limit - t
            let h = try control.trialStep(at: t, remaining: remaining)
            let error = work.withUnsafeMutableBufferPointer { buffer -> Double in
                let w = buffer.baseAddress!
                func slot(_ s: Int) -> UnsafeMutablePointer<Double> { w + s * m }
                let y = slot(Self.y), s = slot(Self.stage), y1 = slot(Self.y1)
                let k1 = slot(1), k2 = slot(2), k3 = slot(3), k4 = slot(4), k5 = slot(5), k6 = slot(6), k7 = slot(7)
                let c21 = h * 0.2
                for i in 0..<m { s[i] = y[i] + c21 * k1[i] }
                layout.derivative(of: s, into: k2, resting: resting)
                let (c31, c32) = (h * (3.0 / 40), h * (9.0 / 40))
                for i in 0..<m { s[i] = (y[i] + c31 * k1[i]) + c32 * k2[i] }
                layout.derivative(of: s, into: k3, resting: resting)
                let (c41, c42, c43) = (h * (44.0 / 45), h * (-56.0 / 15), h * (32.0 / 9))
                for i in 0..<m { s[i] = ((y[i] + c41 * k1[i]) + c42 * k2[i]) + c43 * k3[i] }
                layout.derivative(of: s, into: k4, resting: resting)
                let (c51, c52, c53, c54) = (
                    h * (19372.0 / 6561), h * (-25360.0 / 2187), h * (64448.0 / 6561), h * (-212.0 / 729)
                )
                for i in 0..<m { s[i] = (((y[i] + c51 * k1[i]) + c52 * k2[i]) + c53 * k3[i]) + c54 * k4[i] }
                layout.derivative(of: s, into: k5, resting: resting)
                let (c61, c62, c63) = (h * (9017.0 / 3168), h * (-355.0 / 33), h * (46732.0 / 5247))
                let (c64, c65) = (h * (49.0 / 176), h * (-5103.0 / 18656))
                for i in 0..<m {
                    s[i] = ((((y[i] + c61 * k1[i]) + c62 * k2[i]) + c63 * k3[i]) + c64 * k4[i]) + c65 * k5[i]
                }
                layout.derivative(of: s, into: k6, resting: resting)
                let (b1, b3, b4, b5, b6) = (
                    h * (35.0 / 384), h * (500.0 / 1113), h * (125.0 / 192), h * (-2187.0 / 6784), h * (11.0 / 84)
                )
                for i in 0..<m { y1[i] = ((((y[i] + b1 * k1[i]) + b3 * k3[i]) + b4 * k4[i]) + b5 * k5[i]) + b6 * k6[i] }
                layout.derivative(of: y1, into: k7, resting: resting)
                let (e1, e3, e4) = (h * (71.0 / 57600), h * (-71.0 / 16695), h * (71.0 / 1920))
                let (e5, e6, e7) = (h * (-17253.0 / 339200), h * (22.0 / 525), h * (-1.0 / 40))
                var sum = 0.0
                for i in 0..<m {
                    let estimate = ((((e1 * k1[i] + e3 * k3[i]) + e4 * k4[i]) + e5 * k5[i]) + e6 * k6[i]) + e7 * k7[i]
                    let scale = atol + rtol * max(abs(y[i]), abs(y1[i]))
                    let e = estimate / scale
                    sum += e * e
                }
                return (sum / Double(m)).squareRoot()
            }
            let tNew = h == remaining ? limit : t + h
            evaluations += 6
            if control.accepts(error, step: h, remaining: remaining, maximumStep: .infinity) {
                accept(h)
                previousTime = t
                time = tNew
                steps += 1
                return
            }
        }
        throw SimulationError.stepSizeUnderflow(time: t, step: control.stepSize)
    }

    /// After an accepted step of size h: the dense output, then y1 becomes y (and the state), k7 becomes k1.
    mutating func accept(_ h: Double) {
        let n = count, m = 2 * count
        work.withUnsafeMutableBufferPointer { buffer in
            let w = buffer.baseAddress!
            func slot(_ s: Int) -> UnsafeMutablePointer<Double> { w + s * m }
            let y = slot(Self.y), y1 = slot(Self.y1)
            let k1 = slot(1), k3 = slot(3), k4 = slot(4), k5 = slot(5), k6 = slot(6), k7 = slot(7)
            let r1 = slot(Self.r1), r2 = slot(Self.r1 + 1), r3 = slot(Self.r1 + 2), r4 = slot(Self.r1 + 3),
                r5 = slot(Self.r1 + 4)
            let (d1, d3, d4) = (
                h * (-12715105075.0 / 11282082432), h * (87487479700.0 / 32700410799), h * (-10690763975.0 / 1880347072)
            )
            let (d5, d6, d7) = (
                h * (701980252875.0 / 199316789632), h * (-1453857185.0 / 822651844), h * (69997945.0 / 29380423)
            )
            for i in 0..<m {
                let ydiff = y1[i] - y[i]
                let bspl = h * k1[i] - ydiff
                r1[i] = y[i]
                r2[i] = ydiff
                r3[i] = bspl
                r4[i] = (ydiff - h * k7[i]) - bspl
                r5[i] = ((((d1 * k1[i] + d3 * k3[i]) + d4 * k4[i]) + d5 * k5[i]) + d6 * k6[i]) + d7 * k7[i]
                y[i] = y1[i]
                k1[i] = k7[i]
            }
            state.load(from: y1, count: n)
        }
    }

    /// Lane `lane` (of 2n) of the interpolant at θ.
    @inline(__always)
    func dense(_ lane: Int, _ theta: Double) -> Double {
        let m = 2 * count, base = Self.r1 * m + lane
        let theta1 = 1 - theta
        return work[base] + theta
            * (work[base + m] + theta1
                * (work[base + 2 * m] + theta * (work[base + 3 * m] + theta1 * work[base + 4 * m])))
    }

    public func interpolate(at t: Double) -> State {
        let h = time - previousTime
        if h <= 0 || t >= time { return state }
        let theta = t <= previousTime ? 0 : (t - previousTime) / h
        var result = State.zero(like: state)
        for i in 0..<count {
            result.position.lanes[i] = dense(i, theta)
            result.velocity.lanes[i] = dense(count + i, theta)
        }
        return result
    }

    public func interpolatePosition(at t: Double) -> FlatVector { interpolate(at: t).position }

    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        let h = time - previousTime
        var v = SIMD3<Double>.zero
        for (axis, lane) in lanes.enumerated() {
            v[axis] =
                h <= 0 || t >= time
                ? state.position.lanes[lane] : dense(lane, t <= previousTime ? 0 : (t - previousTime) / h)
        }
        return v
    }

    public mutating func restart(at time: Double, state: State) {
        self.time = time
        self.state = state.owned(sizedTo: count)
        previousTime = time
        load(self.state)
        evaluateDerivative()
        startStepSize()
    }
}
