/// The cubic Hermite interpolant on one interval of length `h`, from the values `y0`, `y1` and
/// slopes `d0`, `d1` at its ends, at `s ∈ [0, 1]`: exact on cubics, error O(h⁴) otherwise. Used
/// for fixed-step dense output and for trajectories sampled with their velocities.
@_spi(Engine) public enum Hermite {
    @inlinable
    public static func value<V: StateVector>(_ y0: V, _ d0: V, _ y1: V, _ d1: V, _ s: Double, _ h: Double) -> V {
        let s2 = s * s, s3 = s2 * s
        let w0 = 2 * s3 - 3 * s2 + 1, wd0 = (s3 - 2 * s2 + s) * h, w1 = -2 * s3 + 3 * s2, wd1 = (s3 - s2) * h
        let count = V.laneCount(of: y0)
        guard V.laneCount == Int.max,
            V.laneCount(of: d0) == count && V.laneCount(of: y1) == count && V.laneCount(of: d1) == count
        else { return w0 * y0 + wd0 * d0 + w1 * y1 + wd1 * d1 }
        // A flat vector in one pass, the same sums lane by lane: the vector expression built seven
        // heap vectors (a dense scene interpolates its whole state at every impact).
        var result = V.zero(like: y0)
        V.withMutableLanes(of: &result) { r in
            V.withLanes(of: y0) { y0 in
                V.withLanes(of: d0) { d0 in
                    V.withLanes(of: y1) { y1 in
                        V.withLanes(of: d1) { d1 in
                            for i in 0..<count { r[i] = w0 * y0[i] + wd0 * d0[i] + w1 * y1[i] + wd1 * d1[i] }
                        }
                    }
                }
            }
        }
        return result
    }

    /// d/dt of `value`: the interpolant's slope.
    @inlinable
    public static func slope<V: StateVector>(_ y0: V, _ d0: V, _ y1: V, _ d1: V, _ s: Double, _ h: Double) -> V {
        let s2 = s * s
        return ((6 * s2 - 6 * s) / h) * y0 + (3 * s2 - 4 * s + 1) * d0 + ((-6 * s2 + 6 * s) / h) * y1 + (3 * s2 - 2 * s)
            * d1
    }

    /// Appends `t0 + s·h` for each s in (0, 1) where the slope of the scalar interpolant changes
    /// sign: the simple roots of `A s² + B s + C` (the slope times h), in increasing order.
    static func appendSlopeRoots(
        _ y0: Double, _ d0: Double, _ y1: Double, _ d1: Double, from t0: Double, h: Double,
        to times: inout [Double]
    ) {
        let a = 6 * (y0 - y1) + 3 * h * (d0 + d1), b = -6 * (y0 - y1) - 4 * h * d0 - 2 * h * d1, c = h * d0
        // Most pieces are monotone: both ends' slopes of one sign, and no vertex in (0, 1) that
        // could cross zero between them. Those need no square root.
        let end = a + b + c
        if c > 0 && end > 0 && !(a > 0 && -b > 0 && -b < 2 * a) { return }
        if c < 0 && end < 0 && !(a < 0 && b > 0 && b < -2 * a) { return }
        var first = Double.nan, second = Double.nan
        if abs(a) <= 1e-14 * (abs(b) + abs(c)) {
            if b != 0 { first = -c / b }
        } else {
            let discriminant = b * b - 4 * a * c
            guard discriminant > 0 else { return }
            // The stable pair: q = −(b + sign(b)·√D)/2, roots q/a and c/q.
            let q = -0.5 * (b + (b < 0 ? -1 : 1) * discriminant.squareRoot())
            (first, second) = (q / a, q != 0 ? c / q : .nan)
            if second < first { (first, second) = (second, first) }
        }
        // Not `for s in [first, second]`: that array literal was a heap allocation per sample.
        if first > 0 && first < 1 { times.append(t0 + first * h) }
        if second > 0 && second < 1 { times.append(t0 + second * h) }
    }
}
