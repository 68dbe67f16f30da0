import RealModule

/// Hairer's scaled RMS norm, `√(Σ (eᵢ/skᵢ)² / n)` with `skᵢ = atol + rtol·max(|y0ᵢ|, |y1ᵢ|)`,
/// the norm scipy's `solve_ivp` also uses, which makes its step counts a fair oracle.
@_spi(Engine) @inlinable
public func scaledNorm<V: StateVector>(_ error: V, _ y0: V, _ y1: V, absolute: Double, relative: Double) -> Double {
    (squaredScaledError(error, y0, y1, absolute: absolute, relative: relative) / Double(V.laneCount(of: y1)))
        .squareRoot()
}

/// `Σ (eᵢ/skᵢ)²` over the lanes of `error`: the norm's sum, which a step run lane by lane adds up
/// one lane at a time in the same order.
@_spi(Engine) @inlinable @inline(__always)
public func squaredScaledError<V: StateVector>(_ error: V, _ y0: V, _ y1: V, absolute: Double, relative: Double)
    -> Double
{
    var sum = 0.0
    for i in 0..<V.laneCount(of: y1) {
        let scale = absolute + relative * max(abs(y0[lane: i]), abs(y1[lane: i]))
        let e = error[lane: i] / scale
        sum += e * e
    }
    return sum
}

/// `Σ (e5ᵢ/skᵢ)²` and `Σ (e3ᵢ/skᵢ)²`: dop853's two sums, one reciprocal of the scale for both.
@_spi(Engine) @inlinable @inline(__always)
public func squaredScaledErrors<V: StateVector>(
    _ error5: V, _ error3: V, _ y0: V, _ y1: V, absolute: Double, relative: Double
) -> (Double, Double) {
    var sum5 = 0.0, sum3 = 0.0
    for i in 0..<V.laneCount(of: y1) {
        let inverseScale = 1 / (absolute + relative * max(abs(y0[lane: i]), abs(y1[lane: i])))
        let q5 = error5[lane: i] * inverseScale, q3 = error3[lane: i] * inverseScale
        sum5 += q5 * q5
        sum3 += q3 * q3
    }
    return (sum5, sum3)
}

/// Hairer's starting step (`hinit` in dopri5.f; scipy's `select_initial_step`).
@_spi(Engine) @inlinable
public func initialStep<S: SecondOrderSystem>(
    _ system: S, time: Double, state: PhaseState<S.Vector>, derivative f0: PhaseState<S.Vector>,
    order: Int, absolute: Double, relative: Double, maximumStep: Double
) -> Double {
    let d0 = scaledNorm(state, .zero, state, absolute: absolute, relative: relative)
    let d1 = scaledNorm(f0, .zero, state, absolute: absolute, relative: relative)  // scale by |y0| only
    var h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1
    h0 = min(h0, maximumStep)
    let f1 = system.derivative(of: state + h0 * f0, at: time + h0)
    let d2 = scaledNorm(f1 - f0, .zero, state, absolute: absolute, relative: relative) / h0
    let h1 = max(d1, d2) <= 1e-15 ? max(1e-6, h0 * 1e-3) : Double.pow(0.01 / max(d1, d2), 1 / Double(order + 1))
    return min(100 * h0, h1, maximumStep)
}
