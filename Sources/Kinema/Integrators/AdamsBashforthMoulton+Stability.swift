import ComplexModule
import RealModule

extension AdamsBashforthMoulton {
    /// The largest step at which the PECE scheme of `order` is stable on a spring of angular frequency
    /// `omega` and damping ratio `dampingRatio`: the first ωh, scanning up by 2 % and then bisecting,
    /// at which a root of its characteristic polynomial on y' = λy (λ either eigenvalue of the
    /// spring) leaves the circle of radius 1 + 1e-6. (Some orders grow by 1e-13 per step on an
    /// undamped spring at any step, which no run shows; 1e-6 per step is 1 % in 10⁴ steps.)
    public static func largestStableStep(order: Int, omega: Double, dampingRatio zeta: Double) -> Double {
        guard omega > 0 else { return .infinity }
        let eigenvalues: [Complex<Double>] = zeta < 1
            ? [Complex(-zeta, (1 - zeta * zeta).squareRoot())]
            : [Complex(-zeta + (zeta * zeta - 1).squareRoot(), 0), Complex(-zeta - (zeta * zeta - 1).squareRoot(), 0)]
        var roots = (0..<order).map { Complex<Double>.pow(Complex(0.4, 0.9), $0) }
        func stable(_ x: Double) -> Bool {
            eigenvalues.allSatisfy { lambda in
                largestRoot(order: order, z: Complex(x, 0) * lambda, roots: &roots) <= 1 + 1e-6
            }
        }
        var low = 1e-4, high = low
        while stable(high) {
            low = high
            high *= 1.02
            if high > 10 { return high / omega }  // stable as far as any explicit method goes
        }
        for _ in 0..<40 {
            let middle = 0.5 * (low + high)
            if stable(middle) { low = middle } else { high = middle }
        }
        return low / omega
    }

    /// ωh below which the scheme of `order` is stable on a spring of any damping ratio: 90 % of the
    /// least `largestStableStep` × ω over ζ in 0…1 in steps of 0.01 (ζ ≥ 1 puts the fastest
    /// eigenvalue on the negative real axis, where ζ = 1 already looks). Below 4× this no step can
    /// be 4× past the limit, so a run need not pay the scan (1.5 ms, 100× a 2-s run) to find out.
    /// `AdamsTests` scans again on a grid twice as fine.
    public static func stepStableOnEverySpring(order: Int) -> Double {
        [0.9, 0.6, 0.063, 0.122, 0.247, 0.46, 0.345, 0.253, 0.182, 0.129, 0.089, 0.06][order - 1]
    }

    /// The largest root modulus of the PECE scheme's characteristic polynomial at z = hλ:
    /// ζ^k − ζ^(k−1) − z Σ_{j≥0} b*_j ζ^(k−j)·[j ≥ 1] − z b*₀ ζ^(k−1) − z² b*₀ Σ_j b_j ζ^(k−1−j), with
    /// b the Bashforth and b* the Moulton weights. Durand–Kerner, started from `roots` (the last
    /// call's, so a scan converges in a few iterations).
    static func largestRoot(order k: Int, z: Complex<Double>, roots: inout [Complex<Double>]) -> Double {
        let b = AdamsCoefficients.bashforth[k - 1], c = AdamsCoefficients.moulton[k - 1]
        var p = [Complex<Double>](repeating: .zero, count: k + 1)  // p[i]: coefficient of ζ^(k−i)
        p[0] = .one
        p[1] = -.one - z * Complex(c[0], 0)
        for j in 1..<k { p[j] -= z * Complex(c[j], 0) }
        for j in 0..<k { p[1 + j] -= z * z * Complex(c[0] * b[j], 0) }
        func value(_ x: Complex<Double>) -> Complex<Double> { p.reduce(.zero) { $0 * x + $1 } }
        for _ in 0..<500 {
            var change = 0.0
            for i in 0..<k {
                var denominator = Complex<Double>.one
                for j in 0..<k where j != i { denominator *= roots[i] - roots[j] }
                let delta = value(roots[i]) / denominator
                guard delta.isFinite else { continue }
                roots[i] -= delta
                change = max(change, delta.length)
            }
            if change < 1e-14 { break }
        }
        return roots.map(\.length).max() ?? 0
    }
}
