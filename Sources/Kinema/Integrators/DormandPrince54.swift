/// Dormand–Prince 5(4) with Hairer's PI step-size control and 4th-order dense output: the method
/// of dopri5.f, MATLAB's ode45 and scipy's RK45, for animation tolerances.
///
/// Control: error in Hairer's scaled RMS norm (`ErrorNorm.swift`); PI step factor
/// `0.9·err^(−1/5)·(errₚᵣₑᵥ/err)^β` with β = 0.04 (Gustafsson's form, `StepSizeController`). The
/// proportional term acts on the error ratio, so in steady state the controller settles where the
/// classic one does (err = 0.9⁵ ≈ 0.59), and step counts match scipy's RK45 (481 steps on the
/// reference spring; Hairer's dopri5 form `err^(−0.2+0.75β)·errₚᵣₑᵥ^β`, which settles at
/// err ≈ 0.44, takes 510, 6 % more). Seven stages with the last reused (FSAL): six evaluations per
/// accepted step; the dense output costs none.
@_spi(Engine) public enum DormandPrince54: AdaptiveMethod {
    public static var order: Int { 4 }
    public static var law: StepSizeController.Law { .dormandPrince54 }
    public static var evaluationsPerStep: Int { 6 }
    public static var denseEvaluations: Int { 0 }
    public static var lastKept: StageSlot { .k6 }
    public static var lastRegister: StageSlot { .r4 }

    @inlinable @inline(__always)
    public static func trial<R: StageRegisters>(
        _ r: inout R, _ system: R.System, time t: Double, step h: Double, end tNew: Double,
        absolute atol: Double, relative rtol: Double, lanes: Double
    ) -> Double {
        let c21 = h * 0.2
        r.forEachLane { r, i in r[.stage, i] = r[.y, i] + c21 * r[.k1, i] }
        r.derivative(of: .stage, into: .k2, time: t + 0.2 * h, system)
        let (c31, c32) = (h * (3.0 / 40), h * (9.0 / 40))
        r.forEachLane { r, i in r[.stage, i] = (r[.y, i] + c31 * r[.k1, i]) + c32 * r[.k2, i] }
        r.derivative(of: .stage, into: .k3, time: t + 0.3 * h, system)
        let (c41, c42, c43) = (h * (44.0 / 45), h * (-56.0 / 15), h * (32.0 / 9))
        r.forEachLane { r, i in
            r[.stage, i] = ((r[.y, i] + c41 * r[.k1, i]) + c42 * r[.k2, i]) + c43 * r[.k3, i]
        }
        r.derivative(of: .stage, into: .k4, time: t + 0.8 * h, system)
        let (c51, c52) = (h * (19372.0 / 6561), h * (-25360.0 / 2187))
        let (c53, c54) = (h * (64448.0 / 6561), h * (-212.0 / 729))
        r.forEachLane { r, i in
            r[.stage, i] =
                (((r[.y, i] + c51 * r[.k1, i]) + c52 * r[.k2, i]) + c53 * r[.k3, i]) + c54 * r[.k4, i]
        }
        r.derivative(of: .stage, into: .k5, time: t + (8.0 / 9) * h, system)
        let (c61, c62, c63) = (h * (9017.0 / 3168), h * (-355.0 / 33), h * (46732.0 / 5247))
        let (c64, c65) = (h * (49.0 / 176), h * (-5103.0 / 18656))
        r.forEachLane { r, i in
            r[.stage, i] =
                ((((r[.y, i] + c61 * r[.k1, i]) + c62 * r[.k2, i]) + c63 * r[.k3, i]) + c64 * r[.k4, i])
                + c65 * r[.k5, i]
        }
        r.derivative(of: .stage, into: .k6, time: t + h, system)
        let (b1, b3, b4) = (h * (35.0 / 384), h * (500.0 / 1113), h * (125.0 / 192))
        let (b5, b6) = (h * (-2187.0 / 6784), h * (11.0 / 84))
        r.forEachLane { r, i in
            r[.y1, i] =
                ((((r[.y, i] + b1 * r[.k1, i]) + b3 * r[.k3, i]) + b4 * r[.k4, i]) + b5 * r[.k5, i])
                + b6 * r[.k6, i]
        }
        r.derivative(of: .y1, into: .end, time: tNew, system)
        let (e1, e3, e4) = (h * (71.0 / 57600), h * (-71.0 / 16695), h * (71.0 / 1920))
        let (e5, e6, e7) = (h * (-17253.0 / 339200), h * (22.0 / 525), h * (-1.0 / 40))
        var sum = 0.0
        r.forEachLane { r, i in
            let estimate =
                ((((e1 * r[.k1, i] + e3 * r[.k3, i]) + e4 * r[.k4, i]) + e5 * r[.k5, i]) + e6 * r[.k6, i])
                + e7 * r[.end, i]
            sum += squaredScaledError(estimate, r[.y, i], r[.y1, i], absolute: atol, relative: rtol)
        }
        return (sum / lanes).squareRoot()
    }

    /// r1…r4 of y(θ) = y + θ(r1 + (1−θ)(r2 + θ(r3 + (1−θ)r4))).
    @inlinable @inline(__always)
    public static func denseOutput<R: StageRegisters>(_ r: inout R, _ system: R.System, time t: Double, step h: Double)
    {
        let (d1, d3) = (h * (-12715105075.0 / 11282082432), h * (87487479700.0 / 32700410799))
        let (d4, d5) = (h * (-10690763975.0 / 1880347072), h * (701980252875.0 / 199316789632))
        let (d6, d7) = (h * (-1453857185.0 / 822651844), h * (69997945.0 / 29380423))
        r.forEachLane { r, i in
            let ydiff = r[.y1, i] - r[.y, i]
            let bspl = h * r[.k1, i] - ydiff
            r[.r1, i] = ydiff
            r[.r2, i] = bspl
            r[.r3, i] = (ydiff - h * r[.end, i]) - bspl
            r[.r4, i] =
                ((((d1 * r[.k1, i] + d3 * r[.k3, i]) + d4 * r[.k4, i]) + d5 * r[.k5, i]) + d6 * r[.k6, i])
                + d7 * r[.end, i]
        }
    }

    /// At θ = 0 the start itself (the sum would turn a −0 lane into +0).
    @inlinable @inline(__always)
    public static func dense<R: StageRegisters>(_ r: borrowing R, _ lane: R.Lane, _ theta: Double) -> R.Element {
        if theta == 0 { return r[.y, lane] }
        let theta1 = 1 - theta
        return r[.y, lane] + theta
            * (r[.r1, lane] + theta1 * (r[.r2, lane] + theta * (r[.r3, lane] + theta1 * r[.r4, lane])))
    }
}
