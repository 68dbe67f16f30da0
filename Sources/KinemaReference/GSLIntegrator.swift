import CGSL
@_spi(Engine) import Kinema

/// Integrates a Kinema scene with `gsl_odeiv2`, behind Kinema's `Integrator` protocol, so the
/// same loop samples it, locates its collisions and checks its stability.
///
/// - Fixed step: a driver allocated with `eps_abs = 1e30` (GSL's fixed-step path still applies
///   the error test; this makes it pass), stepped with `gsl_odeiv2_evolve_apply_fixed_step`.
///   Note GSL's `rk4` estimates its error by step doubling and returns the two half steps, so its
///   step h equals classic RK4 at h/2.
/// - Adaptive: `gsl_odeiv2_evolve_apply` with GSL's standard control (`eps_abs = eps_rel = tolerance`).
/// - Inside a step (collision location, samples between steps) the state comes from one `rk8pd`
///   step from the step's start: GSL offers no dense output for its steppers.
/// - Implicit methods get the scene's analytic Jacobian. One driver per integrator: not for
///   sharing across threads.
@_spi(Engine) public struct GSLIntegrator<V: StateVector>: Integrator {
    public typealias System = SceneSystem<V>

    let storage: Storage

    public let method: GSLMethod
    public let stepping: GSLStepping

    /// - Throws: `KinemaError` for a non-positive step or tolerance.
    public init(system: System, method: GSLMethod, stepping: GSLStepping, state: PhaseState<V>) throws {
        switch stepping {
        case .fixed(let h):
            try KinemaError.requirePositive(h, "timeStep")
            // Their order selection runs on the error test, which a fixed step switches off.
            guard !method.isMultistep else {
                throw KinemaError(
                    parameter: "gsl-\(method.rawValue)", value: "a fixed step",
                    rule: "run adaptively (multistep methods choose their order from the error test)")
            }
        case .adaptive(let tolerance): try KinemaError.requirePositive(tolerance, "tolerance")
        }
        _ = GSLError.abortHandlerDisabled
        self.method = method
        self.stepping = stepping
        storage = Storage(system: system, method: method, stepping: stepping)
        storage.load(state)
        storage.savePrevious()
    }

    public var system: System {
        get { storage.system }
        set { storage.system = newValue }
    }
    public var time: Double { storage.time }
    public var previousTime: Double { storage.previousTime }
    public var state: PhaseState<V> { storage.read(storage.y) }
    public var steps: Int { storage.steps }
    public var evaluations: Int { storage.evaluations }

    public mutating func advance(toward limit: Double) throws {
        try storage.advance(toward: limit)
    }

    public func interpolate(at t: Double) -> PhaseState<V> {
        storage.interpolate(at: t)
    }

    public mutating func restart(at time: Double, state: PhaseState<V>) {
        storage.load(state)
        storage.time = time
        storage.savePrevious()
        gsl_odeiv2_driver_reset(storage.driver)
    }
}

extension GSLIntegrator {
    /// The GSL objects and buffers, at stable addresses for the C callbacks.
    final class Storage {
        /// Behind a pointer so each callback reads the system in place, without copying the struct
        /// (and retaining its arrays) or a dynamic exclusivity check on a class property.
        let systemPointer: UnsafeMutablePointer<System>
        var system: System {
            get { systemPointer.pointee }
            set { systemPointer.pointee = newValue }
        }
        let counters: UnsafeMutablePointer<Int>
        let method: GSLMethod
        let stepping: GSLStepping
        let coordinates: Int
        let dimension: Int
        let y: UnsafeMutablePointer<Double>
        let previous: UnsafeMutablePointer<Double>
        let scratch: UnsafeMutablePointer<Double>
        let error: UnsafeMutablePointer<Double>
        let gslSystem: UnsafeMutablePointer<gsl_odeiv2_system>
        let driver: UnsafeMutablePointer<gsl_odeiv2_driver>
        let locator: UnsafeMutablePointer<gsl_odeiv2_step>
        var time = 0.0
        var previousTime = 0.0
        var stepSize: Double
        var steps = 0
        var evaluations: Int { counters.pointee }
        var tinySteps = 0
        /// What GSL's `params` points to; replaced (not mutated) when the callbacks change.
        var callbacks = GSLCallbackTarget(derivative: { _, _, _ in }, jacobian: { _, _, _ in })

        init(system: System, method: GSLMethod, stepping: GSLStepping) {
            systemPointer = .allocate(capacity: 1)
            systemPointer.initialize(to: system)
            counters = .allocate(capacity: 1)
            counters.initialize(to: 0)
            self.method = method
            self.stepping = stepping
            coordinates = system.scene.coordinateCount
            dimension = 2 * coordinates
            y = .allocate(capacity: dimension)
            previous = .allocate(capacity: dimension)
            scratch = .allocate(capacity: dimension)
            error = .allocate(capacity: dimension)
            for buffer in [y, previous, scratch, error] { buffer.initialize(repeating: 0, count: dimension) }
            gslSystem = .allocate(capacity: 1)
            gslSystem.initialize(to: gsl_odeiv2_system(function: nil, jacobian: nil, dimension: dimension, params: nil))
            let (absolute, relative, start): (Double, Double, Double)
            switch stepping {
            case .fixed(let h): (absolute, relative, start) = (1e30, 0, h)
            case .adaptive(let tolerance): (absolute, relative, start) = (tolerance, tolerance, 1e-6)
            }
            stepSize = start
            // The callbacks find their target through `params`; the system is set before any use.
            driver = gsl_odeiv2_driver_alloc_y_new(gslSystem, method.stepType, start, absolute, relative)
            locator = gsl_odeiv2_step_alloc(GSLMethod.rk8pd.stepType, dimension)
            // Closures made here, where V is concrete, run specialized code; an overridden method
            // of a generic class would be reached through its vtable, unspecialized.
            setCallbacks(
                GSLCallbackTarget(
                    derivative: { [unowned(unsafe) self] t, y, f in self.derivative(t, y, f) },
                    jacobian: { [unowned(unsafe) self] y, dfdy, dfdt in self.jacobian(y, dfdy, dfdt) }))
            gslSystem.pointee.function = gslDerivative
            gslSystem.pointee.jacobian = gslJacobian
            gsl_odeiv2_driver_set_nmax(driver, 0)
        }

        deinit {
            gsl_odeiv2_step_free(locator)
            gsl_odeiv2_driver_free(driver)
            gslSystem.deallocate()
            for buffer in [y, previous, scratch, error] { buffer.deallocate() }
            systemPointer.deinitialize(count: 1)
            systemPointer.deallocate()
            counters.deallocate()
        }

        /// Makes `target` the one GSL calls (through `params`) and keeps it alive.
        func setCallbacks(_ target: GSLCallbackTarget) {
            callbacks = target
            gslSystem.pointee.params = Unmanaged.passUnretained(target).toOpaque()
        }

        /// For a system that will not change (no contacts): the derivative closure captures a copy,
        /// so each evaluation borrows it instead of loading it (and retaining its arrays) through
        /// the pointer.
        func captureSystem() {
            let system = systemPointer.pointee, coordinates = coordinates, counters = counters
            setCallbacks(
                GSLCallbackTarget(
                    derivative: { t, y, f in
                        var state = PhaseState<V>.zero
                        for j in 0..<coordinates {
                            state.position[lane: j] = y[j]
                            state.velocity[lane: j] = y[coordinates + j]
                        }
                        let a = system.acceleration(position: state.position, velocity: state.velocity, time: t)
                        for j in 0..<coordinates {
                            f[j] = y[coordinates + j]
                            f[coordinates + j] = a[lane: j]
                        }
                        counters.pointee += 1
                    }, jacobian: callbacks.jacobianFunction))
        }

        func read(_ buffer: UnsafePointer<Double>) -> PhaseState<V> {
            var state = PhaseState<V>.zero
            for j in 0..<coordinates {
                state.position[lane: j] = buffer[j]
                state.velocity[lane: j] = buffer[coordinates + j]
            }
            return state
        }

        func load(_ state: PhaseState<V>) {
            for j in 0..<coordinates {
                y[j] = state.position[lane: j]
                y[coordinates + j] = state.velocity[lane: j]
            }
        }

        func savePrevious() {
            previous.update(from: y, count: dimension)
            previousTime = time
        }

        func derivative(_ t: Double, _ y: UnsafePointer<Double>, _ f: UnsafeMutablePointer<Double>) {
            let state = read(y)
            let a = systemPointer.pointee.acceleration(position: state.position, velocity: state.velocity, time: t)
            for j in 0..<coordinates {
                f[j] = y[coordinates + j]
                f[coordinates + j] = a[lane: j]
            }
            counters.pointee += 1
        }

        func jacobian(
            _ y: UnsafePointer<Double>, _ dfdy: UnsafeMutablePointer<Double>,
            _ dfdt: UnsafeMutablePointer<Double>
        ) {
            let state = read(y)
            let (dx, dv) = systemPointer.pointee.jacobian(position: state.position, velocity: state.velocity)
            let n = coordinates
            for row in 0..<dimension {
                dfdt[row] = 0
                for column in 0..<dimension {
                    let value: Double
                    if row < n {
                        value = column == row + n ? 1 : 0
                    } else {
                        value = column < n ? dx[(row - n) * n + column] : dv[(row - n) * n + column - n]
                    }
                    dfdy[row * dimension + column] = value
                }
            }
        }

        func advance(toward limit: Double) throws {
            savePrevious()
            var t = time
            var status: Int32 = 0
            switch stepping {
            case .fixed(let h):
                let remaining = limit - t
                let step = remaining <= h * (1 + 1e-9) ? remaining : h
                status = gsl_odeiv2_evolve_apply_fixed_step(
                    driver.pointee.e, driver.pointee.c, driver.pointee.s, gslSystem, &t, step, y)
                if status == Int32(GSL_SUCCESS) && step == remaining { t = limit }
            case .adaptive:
                // A stepper that cannot take the step (bsimp's iteration, say) returns with t unchanged
                // and a halved step: try again, a bounded number of times.
                var attempt = 0
                repeat {
                    status = gsl_odeiv2_evolve_apply(
                        driver.pointee.e, driver.pointee.c, driver.pointee.s, gslSystem, &t, limit, &stepSize, y)
                    attempt += 1
                } while status == Int32(GSL_SUCCESS) && t == time && attempt < 200 && stepSize > 1e-14 * max(1, abs(t))
            }
            guard status == Int32(GSL_SUCCESS) else {
                y.update(from: previous, count: dimension)
                throw GSLError(
                    code: status, function: isFixed ? "gsl_odeiv2_evolve_apply_fixed_step" : "gsl_odeiv2_evolve_apply",
                    time: time)
            }
            // GSL keeps shrinking the step rather than fail when a tolerance is out of reach.
            // (A stepper may take a few vanishing steps and recover; a thousand in a row is a stall.)
            if t < limit && t - time <= 1e-14 * max(1, abs(t)) {
                tinySteps += 1
                if tinySteps > 1_000 {
                    y.update(from: previous, count: dimension)
                    throw SimulationError.stepSizeUnderflow(time: time, step: t - time)
                }
            } else {
                tinySteps = 0
            }
            time = t
            steps += 1
        }

        var isFixed: Bool {
            if case .fixed = stepping { return true } else { return false }
        }

        func interpolate(at t: Double) -> PhaseState<V> {
            if t >= time { return read(y) }
            if t <= previousTime { return read(previous) }
            scratch.update(from: previous, count: dimension)
            gsl_odeiv2_step_reset(locator)
            let status = gsl_odeiv2_step_apply(
                locator, previousTime, t - previousTime, scratch, error, nil, nil, gslSystem)
            return status == Int32(GSL_SUCCESS) ? read(scratch) : read(previous)
        }
    }
}

/// The non-generic face the C callbacks see (a C function pointer cannot capture generics). The
/// closures are `let`s, so a call reads them without retaining them: as `var`s, their retain and
/// release on each evaluation cost as much as GSL's own work for a step's stage.
final class GSLCallbackTarget {
    typealias Derivative = (Double, UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Void
    typealias Jacobian = (UnsafePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>) -> Void
    let derivativeFunction: Derivative
    let jacobianFunction: Jacobian

    init(derivative: @escaping Derivative, jacobian: @escaping Jacobian) {
        derivativeFunction = derivative
        jacobianFunction = jacobian
    }
}

private let gslDerivative:
    @convention(c) (Double, UnsafePointer<Double>?, UnsafeMutablePointer<Double>?, UnsafeMutableRawPointer?)
        -> Int32 = { t, y, f, params in
            // Guaranteed, not taken: the storage keeps the target alive through every call.
            Unmanaged<GSLCallbackTarget>.fromOpaque(params!)._withUnsafeGuaranteedRef {
                $0.derivativeFunction(t, y!, f!)
            }
            return Int32(GSL_SUCCESS)
        }

private let gslJacobian:
    @convention(c) (
        Double, UnsafePointer<Double>?, UnsafeMutablePointer<Double>?,
        UnsafeMutablePointer<Double>?, UnsafeMutableRawPointer?
    ) -> Int32 = { t, y, dfdy, dfdt, params in
        Unmanaged<GSLCallbackTarget>.fromOpaque(params!)._withUnsafeGuaranteedRef {
            $0.jacobianFunction(y!, dfdy!, dfdt!)
        }
        return Int32(GSL_SUCCESS)
    }
