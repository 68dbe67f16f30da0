/// The cubic Hermite interpolant on one interval of length `h`, from the values `y0`, `y1` and
/// slopes `d0`, `d1` at its ends, at `s ∈ [0, 1]`: exact on cubics, error O(h⁴) otherwise. Used
/// for fixed-step dense output and for trajectories sampled with their velocities.
@usableFromInline
enum Hermite {
    @inlinable
    static func value<V: StateVector>(_ y0: V, _ d0: V, _ y1: V, _ d1: V, _ s: Double, _ h: Double) -> V {
        let s2 = s * s, s3 = s2 * s
        return (2 * s3 - 3 * s2 + 1) * y0 + ((s3 - 2 * s2 + s) * h) * d0 + (-2 * s3 + 3 * s2) * y1 + ((s3 - s2) * h) * d1
    }

    /// d/dt of `value`: the interpolant's slope.
    @inlinable
    static func slope<V: StateVector>(_ y0: V, _ d0: V, _ y1: V, _ d1: V, _ s: Double, _ h: Double) -> V {
        let s2 = s * s
        return ((6 * s2 - 6 * s) / h) * y0 + (3 * s2 - 4 * s + 1) * d0 + ((-6 * s2 + 6 * s) / h) * y1 + (3 * s2 - 2 * s) * d1
    }
}
