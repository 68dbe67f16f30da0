import RealModule

extension DampedHarmonicOscillator {
    /// The time after which `|x(t) − target| ≤ tolerance` for good: the last time the bound is
    /// exceeded, located to machine precision.
    ///
    /// Computed, not estimated from the envelope: the motion is monotone between consecutive
    /// extrema, so the last exceedance lies in one known monotone stretch, found in closed form
    /// (underdamped extrema are `π/ωd` apart and shrink by `e^(−λπ/ωd)`) and then bisected.
    /// Returns 0 when the motion never leaves the band, `.infinity` when it never settles (ζ = 0).
    /// - Complexity: O(1) evaluations plus at most 200 bisection steps.
    /// - Throws: `KinemaError` unless `tolerance` is finite and > 0.
    public func settlingDuration(tolerance: Double) throws -> Double {
        try KinemaError.requirePositive(tolerance, "tolerance")
        return settlingDuration(within: tolerance)
    }

    /// `settlingDuration(tolerance:)` for a tolerance known to be finite and > 0.
    func settlingDuration(within tolerance: Double) -> Double {
        // Below the normal range the tail's values lose their digits (and underflow to 0 before
        // they reach the bound): the same motion scaled up by a power of two, and its bound with
        // it, settles at the same time, computed with every digit.
        if tolerance < Self.smallestExactTolerance {
            let scale = Double(
                sign: .plus, exponent: Self.smallestExactTolerance.exponent - tolerance.exponent, significand: 1)
            let scaled = DampedHarmonicOscillator(
                validatedMass: mass, stiffness: stiffness, damping: damping, target: 0,
                initialPosition: a * scale, initialVelocity: initialVelocity * scale)
            if scaled.a.isFinite && scaled.c.isFinite { return scaled.settlingDuration(within: tolerance * scale) }
        }
        let exceeds = { (t: Double) in abs(self.displacement(at: t)) > tolerance }
        if a == 0 && initialVelocity == 0 { return 0 }
        if decayRate == 0 {
            let amplitude = (a * a + initialVelocity * initialVelocity / (-kappa)).squareRoot()
            return amplitude > tolerance ? .infinity : 0
        }
        let p = c - decayRate * a  // v = e^(−λt)(p·c(t) + q·s(t))
        let q = a * kappa - decayRate * c
        if kappa < 0 {
            let omega = rootAbsKappa
            // Extrema where p·cos θ + (q/ω)·sin θ = 0, θ = ω·t; they repeat every π.
            var theta0 = Double.atan2(y: -p, x: q / omega)
            if theta0 < 0 { theta0 += .pi }
            if theta0 >= .pi { theta0 -= .pi }
            let extremum = { (k: Double) in (theta0 + k * .pi) / omega }
            let first = abs(displacement(at: extremum(0)))
            if first <= tolerance {
                return exceeds(0) ? lastCrossing(from: 0, to: extremum(0), tolerance: tolerance) : 0
            }
            let shrinkPerHalfPeriod = decayRate * .pi / omega
            // A difference of logarithms: first / tolerance overflows for a tolerance near 1e-308.
            var k = ((Double.log(first) - Double.log(tolerance)) / shrinkPerHalfPeriod).rounded(.down)
            for _ in 0..<8 where exceeds(extremum(k + 1)) { k += 1 }
            for _ in 0..<8 where k > 0 && !exceeds(extremum(k)) { k -= 1 }
            return lastCrossing(from: extremum(k), to: extremum(k + 1), tolerance: tolerance)
        }
        // Not oscillating: at most one extremum for t > 0, after which |x − target| decreases.
        let turn = extremumTime(p: p, q: q)
        let start = turn ?? 0
        if exceeds(start) {
            var end = start + 1 / decayRate
            for _ in 0..<2_100 where exceeds(end) { end = start + 2 * (end - start) }
            return exceeds(end) ? .infinity : lastCrossing(from: start, to: end, tolerance: tolerance)
        }
        if let turn, exceeds(0) { return lastCrossing(from: 0, to: turn, tolerance: tolerance) }
        return 0
    }

    /// The smallest bound settled on without scaling: far enough above the smallest normal number
    /// (2.2e-308) that the motion's values down to it keep their 53 bits.
    static var smallestExactTolerance: Double { 0x1p-900 }

    /// The time t > 0 where the velocity of a non-oscillating motion changes sign, if any.
    func extremumTime(p: Double, q: Double) -> Double? {
        let time: Double
        if kappa == 0 {
            guard q != 0 else { return nil }
            time = -p / q
        } else {
            // v ∝ α·e^(μt) + β·e^(−μt) with α = (p + q/μ)/2, β = (p − q/μ)/2.
            let mu = rootAbsKappa
            let alpha = (p + q / mu) / 2, beta = (p - q / mu) / 2
            guard alpha != 0, -beta / alpha > 0 else { return nil }
            time = Double.log(-beta / alpha) / (2 * mu)
        }
        return time > 0 && time.isFinite ? time : nil
    }

    /// Bisects for the point in [lower, upper] where `|x − target|` drops to `tolerance`, given that
    /// it exceeds it at `lower` and not at `upper`, with one crossing between.
    func lastCrossing(from lower: Double, to upper: Double, tolerance: Double) -> Double {
        var lower = lower, upper = upper
        for _ in 0..<200 {
            let middle = 0.5 * (lower + upper)
            if middle <= lower || middle >= upper { break }
            if abs(displacement(at: middle)) > tolerance { lower = middle } else { upper = middle }
        }
        return upper
    }
}
